/**
 * Work inside submodules. A superproject's tree records only a submodule's commit, so edits in
 * its working tree would be invisible to a task. A snapshot therefore snapshots every checked-out
 * submodule of the workspace too (in the submodule's own repository, recursively) and records
 * that snapshot commit as the gitlink — or the submodule's HEAD when nothing is uncommitted, so a
 * clean submodule costs no object. A diff then opens each changed gitlink and reports the files
 * that changed inside it, under the submodule's path (`sub/x.txt`).
 *
 * Cost: nothing without a `.gitmodules` file (one stat); otherwise two small git processes
 * (read `.gitmodules`, look the paths up in the index) plus, per checked-out submodule, a
 * snapshot of it, run while the superproject's `git add` runs, and one `diff-tree` per submodule
 * that changed (docs/performance.md, "Figures behind comments in the code").
 */
import { existsSync, realpathSync } from 'node:fs';
import * as path from 'node:path';
import type { FileChanges } from '../core/ports/workspaceTruth';
import { GitError } from './errors';
import type { FolderScope } from './folderScope';
import { GitRepo } from './gitRepo';
import type { GitRunOptions } from './gitRepo';
import { gitlinkMode, parseLsTree, parseRawDiff, rawToFileChanges, sortChanges, splitNul } from './parsers';
import type { RawChange } from './parsers';

/** A submodule whose state a snapshot recorded. */
export interface SubmoduleState {
  /** The submodule's repository (its work tree is `<superproject>/<path>`). */
  repo: GitRepo;
  /** Path in the superproject. */
  path: string;
  /** The commit recorded as the gitlink: the submodule's HEAD, or a snapshot commit of its working state. */
  commit: string;
  /** True when `commit` is a snapshot commit (it must be pinned to survive `git gc` in the submodule). */
  snapshot: boolean;
  /** Submodules of the submodule, recorded the same way. */
  nested: SubmoduleState[];
}

/** Takes a snapshot of a submodule's working state (supplied by snapshot.ts, which imports this module). */
export type SnapshotSubmodule = (repo: GitRepo, path: string) => Promise<SubmoduleState>;

/** A path from `.gitmodules` that may be used as a literal pathspec: relative, no `..`, no `.git`. */
function isPlainPath(p: string): boolean {
  const segments = p.split('/');
  return (
    p !== '' &&
    !p.startsWith('/') &&
    !segments.some((s) => s === '' || s === '.' || s === '..' || s.toLowerCase() === '.git')
  );
}

/** Paths of the checked-out submodules inside `scope`: gitlinks of the user's index with a work tree of their own. */
export async function checkedOutSubmodules(repo: GitRepo, scope: FolderScope): Promise<string[]> {
  if (!existsSync(path.join(repo.root, '.gitmodules'))) return [];
  const config = await repo.run(['config', '-f', '.gitmodules', '-z', '--get-regexp', '^submodule\\..*\\.path$'], {
    okExitCodes: [1],
  });
  const listed = splitNul(config.stdout.toString('utf8'))
    .map((record) => record.slice(record.indexOf('\n') + 1))
    .filter((p) => isPlainPath(p) && scope.fromRepo(p) !== null);
  if (listed.length === 0) return [];
  const stage = await repo.text(['ls-files', '-s', '-z', '--', ...listed], { env: { GIT_LITERAL_PATHSPECS: '1' } });
  const gitlinks = splitNul(stage)
    .map((record) => ({ mode: record.slice(0, record.indexOf(' ')), path: record.slice(record.indexOf('\t') + 1) }))
    .filter((e) => e.mode === gitlinkMode)
    .map((e) => e.path);
  return gitlinks.filter((p) => existsSync(path.join(repo.root, ...p.split('/'), '.git')));
}

/** The repository checked out at `repoPath` of `repo`, or null when it is not a repository of its own there. */
export async function openSubmodule(repo: GitRepo, repoPath: string): Promise<GitRepo | null> {
  const dir = path.join(repo.root, ...repoPath.split('/'));
  if (!existsSync(path.join(dir, '.git'))) return null;
  const sub = await GitRepo.open(dir);
  return realpathSync(sub.root) === realpathSync(dir) ? sub : null;
}

/**
 * Snapshots the checked-out submodules inside `scope` — while the caller's `git add` runs: they
 * are other repositories — and hands back a function that records each one's state as its
 * gitlink in the temporary index, to call once the `add` is done. Resolves with what was
 * recorded (for pinning).
 */
export async function snapshotSubmodules(
  repo: GitRepo,
  scope: FolderScope,
  snapshotSubmodule: SnapshotSubmodule,
): Promise<SubmoduleState[]> {
  const paths = await checkedOutSubmodules(repo, scope);
  const states = await Promise.all(
    paths.map(async (p) => {
      const sub = await openSubmodule(repo, p);
      return sub ? snapshotSubmodule(sub, p) : null;
    }),
  );
  return states.filter((s): s is SubmoduleState => s !== null);
}

/** Records the submodule snapshots among `states` as gitlinks in the private index `index.env` points at. */
export async function recordSubmodules(
  repo: GitRepo,
  index: { env: Record<string, string>; config: string[] },
  states: readonly SubmoduleState[],
): Promise<void> {
  const changed = states.filter((s) => s.snapshot);
  if (changed.length === 0) return;
  const lines = changed.map((s) => `${gitlinkMode} ${s.commit}\t${s.path}\0`).join('');
  await repo.run([...index.config, 'update-index', '-z', '--index-info'], { env: index.env, input: lines });
}

/** Every snapshot commit in `states` and below, with the repository that holds it. */
export function snapshotCommits(states: readonly SubmoduleState[]): { repo: GitRepo; commit: string }[] {
  return states.flatMap((s) => [
    ...(s.snapshot ? [{ repo: s.repo, commit: s.commit }] : []),
    ...snapshotCommits(s.nested),
  ]);
}

/**
 * The files a raw diff of `repo` changed, a changed submodule opened up: the files that differ
 * between its two recorded commits, under its path. A submodule added or removed, not checked
 * out, or whose old commit is gone (gc) is reported by its path.
 */
export async function expandSubmodules(repo: GitRepo, raw: readonly RawChange[]): Promise<FileChanges> {
  const plain: RawChange[] = [];
  const inside: FileChanges[] = [];
  for (const change of raw) {
    const bothGitlinks = change.oldMode === gitlinkMode && change.newMode === gitlinkMode && change.status === 'M';
    const files = bothGitlinks ? await submoduleFiles(repo, change) : null;
    if (files) inside.push(files);
    else plain.push(change);
  }
  const all = rawToFileChanges(plain);
  for (const f of inside) {
    all.added.push(...f.added);
    all.modified.push(...f.modified);
    all.deleted.push(...f.deleted);
    all.renamed.push(...f.renamed);
  }
  return sortChanges(all);
}

async function submoduleFiles(repo: GitRepo, change: RawChange): Promise<FileChanges | null> {
  const sub = await openSubmodule(repo, change.path);
  if (!sub) return null;
  let raw: RawChange[];
  try {
    raw = parseRawDiff(
      await sub.text(['diff-tree', '-r', '-z', '--raw', '--find-renames', change.oldSha, change.newSha]),
    );
  } catch (ex) {
    if (GitError.is(ex, 'snapshotMissing')) return null;
    throw ex;
  }
  const files = await expandSubmodules(sub, raw);
  const under = (p: string) => `${change.path}/${p}`;
  const result: FileChanges = {
    added: files.added.map(under),
    modified: files.modified.map(under),
    deleted: files.deleted.map(under),
    renamed: files.renamed.map((r) => ({ from: under(r.from), to: under(r.to) })),
  };
  // The recorded commit moved without a file changing (e.g. a commit with the same tree): say so by its path.
  return result.added.length + result.modified.length + result.deleted.length + result.renamed.length ? result : null;
}

/** Where a path lies inside a submodule of a tree: the gitlink's path, its commit, and the rest. */
export interface SubmodulePath {
  submodule: string;
  commit: string;
  rest: string;
}

/**
 * For each of `paths` that lies inside a gitlink of `treeish` (the outermost one), where.
 * One `ls-tree` for all their parent folders.
 */
export async function locateInSubmodules(
  repo: GitRepo,
  treeish: string,
  paths: readonly string[],
  options: GitRunOptions = {},
): Promise<Map<string, SubmodulePath>> {
  const located = new Map<string, SubmodulePath>();
  const parents = new Set<string>();
  for (const p of paths) {
    const segments = p.split('/');
    for (let i = 1; i < segments.length; i++) parents.add(segments.slice(0, i).join('/'));
  }
  if (parents.size === 0) return located;
  const output = await repo.text(['ls-tree', '-z', '--full-tree', treeish, '--', ...parents], {
    ...options,
    env: { ...options.env, GIT_LITERAL_PATHSPECS: '1' },
  });
  const gitlinks = parseLsTree(output).filter((e) => e.type === 'commit');
  for (const p of paths) {
    const link = gitlinks.filter((g) => p.startsWith(`${g.path}/`)).sort((a, b) => a.path.length - b.path.length)[0];
    if (link) located.set(p, { submodule: link.path, commit: link.sha, rest: p.slice(link.path.length + 1) });
  }
  return located;
}
