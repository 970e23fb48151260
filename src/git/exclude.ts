import { appendFile, lstat, mkdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { GitError } from './errors';
import { GitRepo } from './gitRepo';

const header = '# Agent Ledger: machine-local files (ledger database, worktrees, snapshots)';

/** Escapes what gitignore syntax would read as a glob, comment or negation in a literal folder. */
function literalPrefix(prefix: string): string {
  return prefix.replace(/[\\*?[]/g, '\\$&').replace(/^([#!])/, '\\$1');
}

/**
 * Adds each of `patterns` (written relative to `workspace`) that is not there yet to the
 * repository's `info/exclude` — the common one, so every worktree shares it. Existing lines
 * are kept as they are. Returns the lines it appended; nothing outside Git.
 */
export async function ensureExcluded(workspace: string, patterns: readonly string[]): Promise<string[]> {
  const repo = (await plainRepository(workspace)) ?? (await openRepository(workspace));
  if (!repo) return [];
  // The file is read relative to the repository root: a workspace subfolder is spelled out.
  const prefix = literalPrefix(repo.prefix);
  const wanted = [...new Set(patterns.map((p) => (prefix ? prefix + p.replace(/^\/+/, '') : p)))];
  const file = path.join(repo.commonDir, 'info', 'exclude');
  const existing = await readFile(file, 'utf8').catch((ex: NodeJS.ErrnoException) => {
    if (ex.code === 'ENOENT') return '';
    throw ex;
  });
  const present = new Set(existing.split('\n').map((line) => line.replace(/\r$/, '').trimEnd()));
  const missing = wanted.filter((line) => !present.has(line));
  if (missing.length === 0) return [];
  const lines = [...(present.has(header) ? [] : [header]), ...missing];
  const separator = existing === '' || existing.endsWith('\n') ? '' : '\n';
  await mkdir(path.dirname(file), { recursive: true });
  // Appending, not rewriting: whatever the user or git wrote stays byte for byte.
  await appendFile(file, `${separator}${lines.join('\n')}\n`);
  return missing;
}

type RepositoryPlace = Pick<GitRepo, 'commonDir' | 'prefix'>;

/**
 * The workspace as the top of an ordinary repository — `.git` a real folder with a `HEAD` and no
 * `commondir` (which only a linked worktree's Git folder has) — read without a git process: what
 * `git rev-parse --git-common-dir --show-prefix` answers there (`.git`, no prefix). Every MCP
 * server and CLI command that writes starts here, so the common case costs no process.
 */
async function plainRepository(workspace: string): Promise<RepositoryPlace | undefined> {
  const gitDir = path.join(path.resolve(workspace), '.git');
  const kind = async (name: string) => await lstat(path.join(gitDir, name)).catch(() => undefined);
  const [dotGit, head, commonDir] = await Promise.all([
    lstat(gitDir).catch(() => undefined),
    kind('HEAD'),
    kind('commondir'),
  ]);
  if (!dotGit?.isDirectory() || !head?.isFile() || commonDir) return undefined;
  return { commonDir: gitDir, prefix: '' };
}

/** Anything else (a subfolder, a linked worktree, `.git` a file or a link) is git's to answer. */
async function openRepository(workspace: string): Promise<RepositoryPlace | undefined> {
  try {
    return await GitRepo.open(workspace);
  } catch (ex) {
    if (GitError.is(ex, 'notARepository') || GitError.is(ex, 'gitNotFound')) return undefined;
    throw ex;
  }
}
