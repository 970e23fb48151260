/**
 * The workspace-truth port: what `core` needs from `git/` to know what a task changed (Git, or an
 * MD5 manifest outside Git). `src/app/services.ts` wires the implementation in.
 */
export type SnapshotType = 'git' | 'checksum';

/** The whole working state at one instant. */
export interface Snapshot {
  type: SnapshotType;
  /** git: the snapshot commit's sha; checksum: the manifest id. */
  id: string;
  /** git: HEAD's sha when the snapshot was taken (null on an unborn branch); checksum: null. */
  head: string | null;
  /** ISO time the snapshot was taken. */
  takenAt: string;
}

export interface RenamedFile {
  from: string;
  to: string;
}

/**
 * Paths relative to the workspace folder (`WorkspaceTruth.root` + `workspacePath`), with `/`
 * separators, sorted. Files inside a submodule appear under its path (`sub/x.txt`).
 */
export interface FileChanges {
  added: string[];
  modified: string[];
  deleted: string[];
  renamed: RenamedFile[];
}

export interface CommitInfo {
  sha: string;
  subject: string;
  author: string;
  /** ISO author date. */
  date: string;
}

export interface ChangesSince {
  files: FileChanges;
  /** Commits reachable from HEAD now and not from the snapshot's HEAD, oldest first. */
  commits: CommitInfo[];
  /** The snapshot of "now" the changes were computed against. */
  to: Snapshot;
}

/** A watch of a work tree's files (`WorkspaceTruth.watchChanges`). */
export interface ChangeWatch {
  /** Paths relative to the workspace folder changed since the previous look (the first: since the start), sorted. */
  next(): Promise<string[]>;
  /** Forgets the watch (deletes what it kept). */
  dispose(): Promise<void>;
}

export interface WorkspaceTruth {
  readonly kind: SnapshotType;
  /** Repository top level (git) or the workspace folder (checksum). */
  readonly root: string;
  /**
   * The workspace folder relative to `root`, `/`-separated, '' when it is the root (always ''
   * for checksums). A subfolder workspace (a package of a monorepo) sees only what lies inside
   * it: changes, commits, file contents and rewinds, all with paths relative to it.
   */
  readonly workspacePath: string;
  /** Captures the working state (tracked + untracked − ignored) without touching it. */
  snapshot(label: string): Promise<Snapshot>;
  /** Protects a snapshot from garbage collection under a readable name (e.g. `task-12`). */
  keep(snapshot: Snapshot, name: string): Promise<void>;
  /** What differs between `from` and `to` (default: a new snapshot of now). */
  changesSince(from: Snapshot, to?: Snapshot): Promise<ChangesSince>;
  /**
   * Follows which files change from `from` on, look after look, writing nothing to the
   * repository (the changed-file marks look every few seconds). Null when this truth cannot
   * tell the same paths `changesSince` would (checksums, submodules): use `changesSince` then.
   */
  watchChanges?(from: Snapshot): Promise<ChangeWatch | null>;
  /** A file's content in a snapshot, or null when it did not exist there. */
  fileAt(snapshot: Snapshot, path: string): Promise<Buffer | null>;
  /** Puts `paths` back as they were in `snapshot` (deleting those absent from it). */
  restore(snapshot: Snapshot, paths: readonly string[]): Promise<void>;
}
