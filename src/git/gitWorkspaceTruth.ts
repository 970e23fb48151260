import type { ChangeWatch, ChangesSince, Snapshot, WorkspaceTruth } from '../core/ports/workspaceTruth';
import { watchChanges } from './changeWatch';
import { commitsBetween, diffSnapshots, diffToTree } from './diff';
import { FolderScope } from './folderScope';
import type { GitRepo } from './gitRepo';
import { readFileAt, restoreFiles } from './restore';
import { assertGitSnapshot, keepSnapshot, takeSnapshot, takeSnapshotWith } from './snapshot/snapshot';
import type { SnapshotOptions } from './snapshot/snapshot';
import type { SubmoduleState } from './submodules';

/** Snapshots whose submodule states are remembered for `keep` (a task keeps its start and end ones). */
const rememberedSnapshots = 64;

/**
 * The workspace as Git sees it. Snapshots are commits of the whole repository (also when the
 * workspace is one of its subfolders) and record checked-out submodules' working states; what
 * comes out — changes, commits, file contents — and what goes back in a rewind is limited to the
 * workspace folder, with paths relative to it.
 */
export class GitWorkspaceTruth implements WorkspaceTruth {
  readonly kind = 'git' as const;
  private readonly scope: FolderScope;
  /** Submodule snapshot commits recorded by snapshots of this process, to pin them in `keep`. */
  private readonly submodules = new Map<string, SubmoduleState[]>();

  /**
   * @param prefix the workspace folder relative to the repository's top level, as
   *   `git rev-parse --show-prefix` prints it (default: the folder `repo` was opened in). A
   *   worktree of a subfolder workspace passes the workspace's own prefix.
   * @param options how snapshots are taken (benchmarks compare the routes).
   */
  constructor(
    private readonly repo: GitRepo,
    prefix = repo.prefix,
    private readonly options: SnapshotOptions = {},
  ) {
    this.scope = new FolderScope(prefix);
  }

  get root(): string {
    return this.repo.root;
  }

  get workspacePath(): string {
    return this.scope.path;
  }

  async snapshot(label: string): Promise<Snapshot> {
    const { snapshot, submodules } = await takeSnapshot(this.repo, label, this.scope, this.options);
    this.remember(snapshot, submodules);
    return snapshot;
  }

  keep(snapshot: Snapshot, name: string): Promise<void> {
    return keepSnapshot(this.repo, snapshot, name, this.submodules.get(snapshot.id), this.options);
  }

  async changesSince(from: Snapshot, to?: Snapshot): Promise<ChangesSince> {
    assertGitSnapshot(from);
    if (to) {
      const [files, commits] = await Promise.all([
        diffSnapshots(this.repo, from, to, this.scope),
        commitsBetween(this.repo, from.head, to.head, this.scope),
      ]);
      return { files, commits, to };
    }
    // Snapshot of now; the diff runs on its tree while the commit object is being written.
    const {
      snapshot: now,
      value,
      submodules,
    } = await takeSnapshotWith(
      this.repo,
      'now',
      (tree, head) =>
        Promise.all([
          diffToTree(this.repo, from, tree, this.scope),
          commitsBetween(this.repo, from.head, head, this.scope),
        ]),
      this.scope,
      this.options,
    );
    this.remember(now, submodules);
    return { files: value[0], commits: value[1], to: now };
  }

  watchChanges(from: Snapshot): Promise<ChangeWatch | null> {
    assertGitSnapshot(from);
    return watchChanges(this.repo, this.scope, from.id);
  }

  fileAt(snapshot: Snapshot, path: string): Promise<Buffer | null> {
    return readFileAt(this.repo, snapshot, path, this.scope);
  }

  restore(snapshot: Snapshot, paths: readonly string[]): Promise<void> {
    return restoreFiles(this.repo, snapshot, paths, this.scope);
  }

  private remember(snapshot: Snapshot, submodules: SubmoduleState[]): void {
    if (submodules.length === 0) return;
    this.submodules.set(snapshot.id, submodules);
    if (this.submodules.size > rememberedSnapshots) this.submodules.delete(this.submodules.keys().next().value!);
  }
}
