/**
 * Real temporary repositories for the git layer's tests. Importing this module isolates every
 * git process of the test file (ours and the library's) from the machine's configuration:
 * no global or system config, hence no user.name — snapshots must not need one.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../../helpers/tmp';

const home = tempDir('agent-ledger-home-');
fs.writeFileSync(path.join(home, 'gitconfig'), '');
process.env.GIT_CONFIG_GLOBAL = path.join(home, 'gitconfig');
process.env.GIT_CONFIG_NOSYSTEM = '1';

const identity = ['-c', 'user.name=Test', '-c', 'user.email=test@example.com'];

/** Runs git in `cwd` (as a user would, identity given on the command line) and returns stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', [...identity, ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * A repository with one commit of `files`, where git refuses to guess an identity, so a
 * snapshot that relied on the user's name would fail.
 */
export function makeRepo(files: Record<string, string | Buffer> = { 'README.md': '# test\n' }): string {
  const dir = tempDir('agent-ledger-git-');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.useConfigOnly', 'true');
  if (Object.keys(files).length > 0) {
    write(dir, files);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'initial');
  }
  return dir;
}

export function write(root: string, files: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(root, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

export function read(root: string, name: string): string {
  return fs.readFileSync(path.join(root, name), 'utf8');
}

export function commit(root: string, message: string): string {
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', message);
  return git(root, 'rev-parse', 'HEAD').trim();
}

/** The private index snapshots keep in the git dir (one per state of the user's index). */
export const keptPrivateIndex = /^agent-ledger-snapshot-index-[0-9a-f]{24}$/;

/** Every observable piece of the user's Git state that a snapshot must leave alone. */
export function userState(root: string): Record<string, string> {
  const gitDir = path.join(root, '.git');
  const indexPath = path.join(gitDir, 'index');
  const index = fs.existsSync(indexPath) ? fs.readFileSync(indexPath) : Buffer.alloc(0);
  const state: Record<string, string> = {
    // Read before running `git status`, which may refresh the index itself.
    indexBytes: createHash('sha256').update(index).digest('hex'),
    indexMtime: fs.existsSync(indexPath) ? String(fs.statSync(indexPath).mtimeMs) : 'none',
    head: fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8'),
    headSha: git(root, 'rev-parse', '--verify', '--quiet', 'HEAD^{commit}').trim() || 'unborn',
    branches: git(root, 'for-each-ref', 'refs/heads', 'refs/tags'),
    stash: git(root, 'stash', 'list'),
    staged: git(root, 'diff', '--cached', '--no-ext-diff'),
    stage: git(root, 'ls-files', '--stage'),
    files: listWorkingFiles(root)
      .map((f) => `${f} ${fs.lstatSync(path.join(root, f)).mtimeMs} ${fs.lstatSync(path.join(root, f)).size}`)
      .join('\n'),
    // Snapshots keep one private index of their own there (src/git/snapshot/privateIndex.ts); nothing else.
    gitDirEntries: fs
      .readdirSync(gitDir)
      .filter((e) => e !== 'index' && !keptPrivateIndex.test(e))
      .sort()
      .join(' '),
  };
  return state;
}

/** `git status --porcelain`, separately: it may rewrite the index, so it runs last. */
export function status(root: string): string {
  return git(root, 'status', '--porcelain', '--untracked-files=all');
}

function listWorkingFiles(root: string, base = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, base), { withFileTypes: true })) {
    const rel = base ? `${base}/${entry.name}` : entry.name;
    if (rel === '.git') continue;
    if (entry.isDirectory()) out.push(...listWorkingFiles(root, rel));
    else out.push(rel);
  }
  return out.sort();
}
