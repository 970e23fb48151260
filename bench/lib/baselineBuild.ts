/**
 * A build of an earlier commit of this repository, for benchmarks that compare "before" and
 * "after" in the same run: the commit's tree (`git archive`) in a temporary folder, this
 * checkout's node_modules linked in, bundled by its own esbuild.mjs. Nothing runs through a shell.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../..');

export interface BaselineBuild {
  /** The commit built. */
  commit: string;
  /** Its dist/cli.js. */
  cli: string;
  dispose(): void;
}

/** The parent of the commit that added `file`: the code just before a change (stays right after a merge). */
export function commitBefore(file: string): string {
  const added = execFileSync('git', ['log', '-1', '--format=%H', '--diff-filter=A', '--', file], {
    cwd: root,
    encoding: 'utf8',
  }).trim();
  if (!added) throw new Error(`no commit adds ${file}`);
  return execFileSync('git', ['rev-parse', `${added}^`], { cwd: root, encoding: 'utf8' }).trim();
}

export function buildBaseline(ref: string): BaselineBuild {
  const commit = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], {
    cwd: root,
    encoding: 'utf8',
  }).trim();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-ledger-baseline-'));
  try {
    const tree = execFileSync('git', ['archive', '--format=tar', commit], { cwd: root, maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', dir], { input: tree });
    symlinkSync(realpathSync(path.join(root, 'node_modules')), path.join(dir, 'node_modules'));
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (err) {
    remove(dir);
    throw err;
  }
  return { commit, cli: path.join(dir, 'dist', 'cli.js'), dispose: () => remove(dir) };
}

/** Removes the folder, unlinking the node_modules link first so nothing it points to is touched. */
function remove(dir: string): void {
  try {
    unlinkSync(path.join(dir, 'node_modules'));
  } catch {
    // not linked yet
  }
  rmSync(dir, { recursive: true, force: true });
}
