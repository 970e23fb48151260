/**
 * Snapshots of the whole working state as commit objects, built without touching anything of
 * the user's: not HEAD, the index, a branch, the stash, a working file, nor a hook.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, rm, stat, utimes } from 'node:fs/promises';
import * as path from 'node:path';
import type { Snapshot } from '../core/ports';
import { GitError } from './errors';
import type { GitRepo } from './gitRepo';
import { FolderScope } from './folderScope';
import { recordSubmodules, snapshotCommits, snapshotSubmodules } from './submodules';
import type { SubmoduleState } from './submodules';

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

/**
 * Copies the real index next to it so `git add` starts from its stat data: unchanged files
 * are not read again. Without an index yet (fresh repository) git starts from an empty one.
 */
async function copyIndex(repo: GitRepo, tempIndex: string): Promise<void> {
  const realIndex = path.join(repo.gitDir, 'index');
  let mtimeSeconds: number;
  try {
    mtimeSeconds = Math.floor((await stat(realIndex)).mtimeMs / 1000);
    await copyFile(realIndex, tempIndex);
  } catch (ex) {
    if ((ex as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw ex;
  }
  // Racy-git: git re-reads an entry whose mtime is not older than the index file's own mtime.
  // A fresh copy would look newer than the original and hide a same-second edit, so the copy
  // gets the original's mtime, rounded down (a superset of the racy entries, never fewer).
  await utimes(tempIndex, mtimeSeconds, mtimeSeconds);
}

/**
 * Settings for commands that write the temporary index: no hooks (`post-index-change` runs on
 * every index write); no split index (it would leave a sharedindex file in the git dir); and
 * no trailing checksum (git >= 2.40; older versions ignore the key): the file is thrown away
 * seconds later, and on a 100,000-file repository it is ~8 MB hashed on each of two writes.
 */
function tempIndexConfig(repo: GitRepo): string[] {
  return [...repo.noHooks(), '-c', 'core.splitIndex=false', '-c', 'index.skipHash=true'];
}

/** A snapshot, with the submodule snapshots it records (to pin them along with it). */
export interface TakenSnapshot<T> {
  snapshot: Snapshot;
  value: T;
  submodules: SubmoduleState[];
}

/**
 * Captures tracked + untracked − ignored files of the whole repository as a commit whose
 * parent is HEAD (none on an unborn branch). Three sequential git processes (add, write-tree,
 * commit-tree) and one in parallel (HEAD); checked-out submodules inside `scope` are
 * snapshotted too (submodules.ts).
 */
export async function takeSnapshot(repo: GitRepo, label: string, scope = wholeRepository): Promise<TakenSnapshot<undefined>> {
  return takeSnapshotWith(repo, label, async () => undefined, scope);
}

/**
 * takeSnapshot, running `withTree` on the snapshot's tree and HEAD while the commit object is
 * written (a diff needs only the tree): one git process less on the path of complete_task.
 */
export async function takeSnapshotWith<T>(repo: GitRepo, label: string, withTree: (tree: string, head: string | null) => Promise<T>, scope = wholeRepository): Promise<TakenSnapshot<T>> {
  const takenAt = new Date().toISOString();
  const headPromise = repo.head();
  // Handled here so a failure while `add` runs is not an unhandled rejection; awaited below.
  headPromise.catch(() => undefined);
  const { tree, submodules } = await workingTree(repo, label, scope);
  const head = await headPromise;
  const [id, value] = await Promise.all([commitTree(repo, tree, head, label), withTree(tree, head)]);
  return { snapshot: { type: 'git', id, head, takenAt }, value, submodules };
}

/** The tree of the working state, written through a temporary index (the user's is only read). */
async function workingTree(repo: GitRepo, label: string, scope: FolderScope): Promise<{ tree: string; submodules: SubmoduleState[] }> {
  const tempIndex = repo.privatePath(`index-${randomBytes(8).toString('hex')}`);
  const env = { GIT_INDEX_FILE: tempIndex };
  try {
    // Submodules are other repositories: snapshotted while `add` runs, recorded once it is done.
    const pending = snapshotSubmodules(repo, scope, (sub, subPath) => submoduleState(sub, subPath, label));
    pending.catch(() => undefined);
    await copyIndex(repo, tempIndex);
    await repo.run([...tempIndexConfig(repo), 'add', '--all', '--sparse', '--', ':/'], { env });
    const submodules = await pending;
    await recordSubmodules(repo, { env, config: tempIndexConfig(repo) }, submodules);
    // write-tree writes the index too (its cache-tree), so the same settings apply.
    const tree = await repo.text([...tempIndexConfig(repo), 'write-tree'], { env });
    return { tree, submodules };
  } finally {
    await rm(tempIndex, { force: true });
    await rm(`${tempIndex}.lock`, { force: true });
  }
}

async function commitTree(repo: GitRepo, tree: string, head: string | null, label: string): Promise<string> {
  const message = `agent-ledger snapshot ${oneLine(label)}`;
  const parent = head ? ['-p', head] : [];
  // --no-gpg-sign: commit.gpgSign would otherwise prompt for a key on every task start.
  return repo.text(['commit-tree', '--no-gpg-sign', tree, ...parent, '-m', message], { env: identity });
}

/** A submodule's state: its HEAD when its working state is exactly HEAD's tree, else a snapshot commit. */
async function submoduleState(sub: GitRepo, subPath: string, label: string): Promise<SubmoduleState> {
  const headTree = sub.run(['rev-parse', '--verify', '--quiet', 'HEAD^{tree}'], { okExitCodes: [1] }).then((r) => r.stdout.toString('utf8').trim() || null);
  headTree.catch(() => undefined);
  const [{ tree, submodules }, head] = await Promise.all([workingTree(sub, label, wholeRepository), sub.head()]);
  if (head && tree === (await headTree)) return { repo: sub, path: subPath, commit: head, snapshot: false, nested: submodules };
  return { repo: sub, path: subPath, commit: await commitTree(sub, tree, head, `${label} (submodule ${subPath})`), snapshot: true, nested: submodules };
}

/**
 * Points `refs/agent-ledger/snapshots/<name>` at the snapshot so it outlives `git gc` — and, in
 * each submodule, at the snapshot commit of it the snapshot records (`submodules`).
 */
export async function keepSnapshot(repo: GitRepo, snapshot: Snapshot, name: string, submodules: readonly SubmoduleState[] = []): Promise<void> {
  if (!refName.test(name) || name.startsWith('.') || name.endsWith('.lock') || name.includes('..')) {
    throw new GitError('invalidName', `Snapshot name "${name}" must match [A-Za-z0-9._-]+ (no leading dot, "..", or ".lock" suffix).`);
  }
  assertGitSnapshot(snapshot);
  await repo.run([...repo.noHooks(), 'update-ref', '-m', 'agent-ledger: keep snapshot', `${snapshotRefPrefix}${name}`, snapshot.id]);
  for (const { repo: sub, commit } of snapshotCommits(submodules)) {
    await sub.run([...sub.noHooks(), 'update-ref', '-m', 'agent-ledger: keep snapshot', `${snapshotRefPrefix}${name}`, commit]);
  }
}

/** Throws `snapshotMissing` unless `snapshot` is a Git snapshot with a well-formed commit id. */
export function assertGitSnapshot(snapshot: Snapshot): void {
  if (snapshot.type !== 'git' || !objectIdPattern.test(snapshot.id)) {
    throw new GitError('snapshotMissing', `Snapshot ${snapshot.id} is not a Git snapshot of this repository.`);
  }
}

/** Labels come from agents: keep the commit subject one readable line. */
function oneLine(label: string): string {
  return label.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, 200);
}
