import type { ChangesSince, Snapshot, WorkspaceTruth } from '../core/ports';
import { commitsBetween, diffSnapshots, diffToTree } from './diff';
import type { GitRepo } from './gitRepo';
import { readFileAt, restoreFiles } from './restore';
import { assertGitSnapshot, keepSnapshot, takeSnapshot, takeSnapshotWith } from './snapshot';

/**
 * The workspace as Git sees it: snapshots are commits of the whole repository (also when the
 * workspace is one of its subfolders), paths are relative to the repository's top level.
 */
export class GitWorkspaceTruth implements WorkspaceTruth {
  readonly kind = 'git' as const;

  constructor(private readonly repo: GitRepo) {}

  get root(): string {
    return this.repo.root;
  }

  snapshot(label: string): Promise<Snapshot> {
    return takeSnapshot(this.repo, label);
  }

  keep(snapshot: Snapshot, name: string): Promise<void> {
    return keepSnapshot(this.repo, snapshot, name);
  }

  async changesSince(from: Snapshot, to?: Snapshot): Promise<ChangesSince> {
    assertGitSnapshot(from);
    if (to) {
      const [files, commits] = await Promise.all([diffSnapshots(this.repo, from, to), commitsBetween(this.repo, from.head, to.head)]);
      return { files, commits, to };
    }
    // Snapshot of now; the diff runs on its tree while the commit object is being written.
    const { snapshot: now, value } = await takeSnapshotWith(this.repo, 'now', (tree, head) =>
      Promise.all([diffToTree(this.repo, from, tree), commitsBetween(this.repo, from.head, head)]),
    );
    return { files: value[0], commits: value[1], to: now };
  }

  fileAt(snapshot: Snapshot, path: string): Promise<Buffer | null> {
    return readFileAt(this.repo, snapshot, path);
  }

  restore(snapshot: Snapshot, paths: readonly string[]): Promise<void> {
    return restoreFiles(this.repo, snapshot, paths);
  }
}
