/**
 * What changed between two snapshots. Both sides are commits of the whole working state, so
 * one tree-to-tree diff attributes committed, uncommitted and untracked changes alike, and
 * files already dirty at the start (same content in both trees) drop out by themselves.
 * A subfolder workspace sees its folder only (`scope`); a changed submodule is opened up into
 * the files that changed inside it (submodules.ts).
 */
import type { CommitInfo, FileChanges, Snapshot } from '../core/ports/workspaceTruth';
import { GitError } from './errors';
import type { GitRepo } from './gitRepo';
import { FolderScope } from './folderScope';
import { logFormat, parseLog, parseRawDiff } from './parsers';
import { assertGitSnapshot, objectIdPattern } from './snapshot/snapshot';
import { expandSubmodules } from './submodules';
import { diffTreesInProcess } from './snapshot/treeDiff';

const wholeRepository = new FolderScope('');

/** Files added, modified, deleted and renamed from `from` to `to`, paths relative to `scope` and sorted. */
export async function diffSnapshots(
  repo: GitRepo,
  from: Snapshot,
  to: Snapshot,
  scope = wholeRepository,
): Promise<FileChanges> {
  assertGitSnapshot(from);
  assertGitSnapshot(to);
  if (from.id === to.id) return { added: [], modified: [], deleted: [], renamed: [] };
  return diffToTree(repo, from, to.id, scope);
}

/** Files changed from snapshot `from` to the tree (or commit) `to`, inside `scope`. */
export async function diffToTree(
  repo: GitRepo,
  from: Snapshot,
  to: string,
  scope = wholeRepository,
): Promise<FileChanges> {
  assertGitSnapshot(from);
  if (!objectIdPattern.test(to)) throw new GitError('snapshotMissing', `"${to}" is not an object id.`);
  // The whole repository's diff without a process where no rename is possible (treeDiff.ts).
  const inProcess = scope.isWhole ? await diffTreesInProcess(repo, from.id, to).catch(() => null) : null;
  const raw =
    inProcess ??
    parseRawDiff(
      await repo.text(
        ['diff-tree', '-r', '-z', '--no-commit-id', '--find-renames', '--raw', from.id, to, '--', ...scope.pathspec()],
        { env: scope.literalEnv() },
      ),
    );
  return scope.narrow(await expandSubmodules(repo, raw));
}

/**
 * Commits reachable from `toHead` and not from `fromHead`, oldest first: the commits made
 * during a task. From an unborn start, every commit of `toHead`; after a rewrite (the start
 * head is no longer an ancestor) still exactly the commits the start could not reach.
 */
export async function commitsBetween(
  repo: GitRepo,
  fromHead: string | null,
  toHead: string | null,
  scope = wholeRepository,
): Promise<CommitInfo[]> {
  if (!toHead || toHead === fromHead) return [];
  for (const sha of [fromHead, toHead]) {
    // Heads come back from the store; an option-looking value must never reach git's argv.
    if (sha !== null && !objectIdPattern.test(sha))
      throw new GitError('snapshotMissing', `"${sha}" is not a commit id.`);
  }
  const exclude = fromHead ? ['--not', fromHead] : [];
  // A subfolder workspace lists the commits that touched its folder.
  const output = await repo.text(
    ['log', '-z', '--no-show-signature', logFormat, '--reverse', toHead, ...exclude, '--', ...scope.pathspec()],
    { env: scope.literalEnv() },
  );
  return parseLog(output);
}
