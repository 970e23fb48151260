import { appendFile, mkdir, readFile } from 'node:fs/promises';
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
  let repo: GitRepo;
  try {
    repo = await GitRepo.open(workspace);
  } catch (ex) {
    if (GitError.is(ex, 'notARepository') || GitError.is(ex, 'gitNotFound')) return [];
    throw ex;
  }
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
