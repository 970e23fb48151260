/**
 * Snapshots of the whole working state as commit objects, built without touching anything of
 * the user's: not HEAD, the index, a branch, the stash, a working file, nor a hook.
 */
import * as path from 'node:path';
import type { Snapshot } from '../../core/ports/workspaceTruth';
import { GitError } from '../errors';
import type { GitRepo } from '../gitRepo';
import { FolderScope } from '../folderScope';
import { writeCommitObject } from './looseObject';
import { writeLooseRef } from './looseRef';
import { rememberCommitTree } from './treeObjects';
import { snapshotCommits } from '../submodules';
import type { SubmoduleState } from '../submodules';
import { workingTree } from './workingTree';
import type { SnapshotRoute } from './workingTree';

const wholeRepository = new FolderScope('');

/** Snapshot commits carry this identity, so they work with no `user.name` configured. */
const identity = {
  GIT_AUTHOR_NAME: 'Agent Ledger',
  GIT_AUTHOR_EMAIL: 'agent-ledger@localhost',
  GIT_COMMITTER_NAME: 'Agent Ledger',
  GIT_COMMITTER_EMAIL: 'agent-ledger@localhost',
};

/** Where kept snapshots live; `git gc` keeps every object reachable from a ref. */
export const snapshotRefPrefix = 'refs/agent-ledger/snapshots/';

const refName = /^[A-Za-z0-9._-]+$/;

/** A full SHA-1 or SHA-256 object id: anything else must never reach git's argv. */
export const objectIdPattern = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** A snapshot, with the submodule snapshots it records (to pin them along with it). */
export interface TakenSnapshot<T> {
  snapshot: Snapshot;
  value: T;
  submodules: SubmoduleState[];
}

/** Options of a snapshot. */
export interface SnapshotOptions {
  /** Which way the working tree is written (workingTree.ts); `full` is the former route, kept as the baseline. */
  route?: SnapshotRoute;
}

/**
 * Captures tracked + untracked − ignored files of the whole repository as a commit whose
 * parent is HEAD (none on an unborn branch) — or HEAD itself when the working state is
 * exactly HEAD's. The commit object is written in this process (looseObject.ts); checked-out
 * submodules inside `scope` are snapshotted too (submodules.ts).
 */
export async function takeSnapshot(
  repo: GitRepo,
  label: string,
  scope = wholeRepository,
  options: SnapshotOptions = {},
): Promise<TakenSnapshot<undefined>> {
  return takeSnapshotWith(repo, label, async () => undefined, scope, options);
}

/**
 * takeSnapshot, running `withTree` on the snapshot's tree (or HEAD's commit) and HEAD while
 * the commit object is written (a diff needs only the tree).
 */
export async function takeSnapshotWith<T>(
  repo: GitRepo,
  label: string,
  withTree: (tree: string, head: string | null) => Promise<T>,
  scope = wholeRepository,
  options: SnapshotOptions = {},
): Promise<TakenSnapshot<T>> {
  const takenAt = new Date().toISOString();
  const { tree, head, isHead, submodules } = await workingTree(
    repo,
    scope,
    (sub, subPath) => submoduleState(sub, subPath, label, options),
    options.route,
  );
  const [id, value] = await Promise.all([
    isHead ? head! : commitTree(repo, tree, head, label, options),
    withTree(tree, head),
  ]);
  return { snapshot: { type: 'git', id, head, takenAt }, value, submodules };
}

async function commitTree(
  repo: GitRepo,
  tree: string,
  head: string | null,
  label: string,
  options: SnapshotOptions,
): Promise<string> {
  const message = `agent-ledger snapshot ${oneLine(label)}`;
  if (options.route !== 'full') {
    const identityLine = `${identity.GIT_AUTHOR_NAME} <${identity.GIT_AUTHOR_EMAIL}>`;
    const id = await writeCommitObject(path.join(repo.commonDir, 'objects'), {
      tree,
      parent: head,
      identity: identityLine,
      message,
    });
    if (id) {
      rememberCommitTree(id, tree);
      return id;
    }
  }
  const parent = head ? ['-p', head] : [];
  // --no-gpg-sign: commit.gpgSign would otherwise prompt for a key on every task start.
  return repo.text(['commit-tree', '--no-gpg-sign', tree, ...parent, '-m', message], { env: identity });
}

/** A submodule's state: its HEAD when its working state is exactly HEAD's tree, else a snapshot commit. */
async function submoduleState(
  sub: GitRepo,
  subPath: string,
  label: string,
  options: SnapshotOptions,
): Promise<SubmoduleState> {
  const { tree, head, isHead, submodules } = await workingTree(
    sub,
    wholeRepository,
    (nested, nestedPath) => submoduleState(nested, nestedPath, label, options),
    options.route,
  );
  if (head && (isHead || tree === (await headTree(sub))))
    return { repo: sub, path: subPath, commit: head, snapshot: false, nested: submodules };
  return {
    repo: sub,
    path: subPath,
    commit: await commitTree(sub, tree, head, `${label} (submodule ${subPath})`, options),
    snapshot: true,
    nested: submodules,
  };
}

async function headTree(repo: GitRepo): Promise<string | null> {
  const { stdout } = await repo.run(['rev-parse', '--verify', '--quiet', 'HEAD^{tree}'], { okExitCodes: [1] });
  return stdout.toString('utf8').trim() || null;
}

/**
 * Points `refs/agent-ledger/snapshots/<name>` at the snapshot so it outlives `git gc` — and, in
 * each submodule, at the snapshot commit of it the snapshot records (`submodules`).
 */
export async function keepSnapshot(
  repo: GitRepo,
  snapshot: Snapshot,
  name: string,
  submodules: readonly SubmoduleState[] = [],
  options: SnapshotOptions = {},
): Promise<void> {
  if (!refName.test(name) || name.startsWith('.') || name.endsWith('.lock') || name.includes('..')) {
    throw new GitError(
      'invalidName',
      `Snapshot name "${name}" must match [A-Za-z0-9._-]+ (no leading dot, "..", or ".lock" suffix).`,
    );
  }
  assertGitSnapshot(snapshot);
  await pointRef(repo, `${snapshotRefPrefix}${name}`, snapshot.id, options);
  for (const { repo: sub, commit } of snapshotCommits(submodules))
    await pointRef(sub, `${snapshotRefPrefix}${name}`, commit, options);
}

/** Written in this process where git's files backend would do just that (looseRef.ts), else by `git update-ref`. */
async function pointRef(repo: GitRepo, ref: string, id: string, options: SnapshotOptions): Promise<void> {
  if (options.route !== 'full' && objectIdPattern.test(id) && (await writeLooseRef(repo.commonDir, ref, id))) return;
  await repo.run([...repo.noHooks(), 'update-ref', '-m', 'agent-ledger: keep snapshot', ref, id]);
}

/** Throws `snapshotMissing` unless `snapshot` is a Git snapshot with a well-formed commit id. */
export function assertGitSnapshot(snapshot: Snapshot): void {
  if (snapshot.type !== 'git' || !objectIdPattern.test(snapshot.id)) {
    throw new GitError('snapshotMissing', `Snapshot ${snapshot.id} is not a Git snapshot of this repository.`);
  }
}

/** Labels come from agents: keep the commit subject one readable line. */
function oneLine(label: string): string {
  return label
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, 200);
}
