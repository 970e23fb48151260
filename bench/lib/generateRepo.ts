import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';

const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'bench',
  GIT_AUTHOR_EMAIL: 'b@x',
  GIT_COMMITTER_NAME: 'bench',
  GIT_COMMITTER_EMAIL: 'b@x',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 28 });
}

/**
 * A committed repository of `files` small files spread over nested folders (like a real
 * source tree: ~50 files per folder), plus a .gitignore and an ignored build folder.
 */
export function generateRepo(files: number): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `agent-ledger-bench-${files}-`)));
  git(root, 'init', '-q', '-b', 'main');
  for (let i = 0; i < files; i++) {
    const dir = path.join(root, 'src', `m${Math.floor(i / 2500)}`, `d${Math.floor(i / 50) % 50}`);
    if (i % 50 === 0) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`);
  }
  fs.writeFileSync(path.join(root, '.gitignore'), 'build/\n');
  fs.mkdirSync(path.join(root, 'build'));
  for (let i = 0; i < 200; i++) fs.writeFileSync(path.join(root, 'build', `o${i}.js`), 'x\n');
  git(root, 'add', '-A');
  // No detached auto-gc left running into the measurements: pack now, like a user's repository.
  git(root, '-c', 'gc.auto=0', 'commit', '-qm', 'generated');
  git(root, 'gc', '--quiet');
  return root;
}

export function removeRepo(root: string): void {
  fs.rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
