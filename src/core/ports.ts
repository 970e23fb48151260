/**
 * What `core` needs from the layers below it, as interfaces. `store/` and `git/` implement
 * them; `src/services.ts` wires the implementations in. `core` never imports those layers.
 */
import type { Event } from './emitter';

// ---------------------------------------------------------------------------------------
// Store
// ---------------------------------------------------------------------------------------

export type SqlValue = string | number | null;
export type SqlParams = readonly SqlValue[];
export type Row = Record<string, SqlValue>;

export interface SqlReader {
  get<T = Row>(sql: string, params?: SqlParams): T | undefined;
  all<T = Row>(sql: string, params?: SqlParams): T[];
}

export interface SqlWriter extends SqlReader {
  /** Executes one statement and records it (with its bound values) in the journal. */
  run(sql: string, params?: SqlParams): { changes: number; lastInsertRowid: number };
}

/** Emitted when this process has applied records it had not seen (its own or another's). */
export interface StoreChange {
  /** Last sequence number seen before the change. */
  fromSeq: number;
  /** Sequence number now applied. */
  toSeq: number;
  /** True when the records came from another process. */
  external: boolean;
}

/**
 * The embedded store's synchronous interface (store/ledgerStore.ts implements it; the embedded
 * engine wraps it). The domain does not use it: it talks to {@link LedgerEngine}.
 *
 * The one multi-process store of a workspace (DESIGN.md). Reads catch up with the journal
 * first; writes run under the cross-process lock, in a transaction, and are durable
 * (fsynced) when the promise resolves. `fn` must be synchronous and must compute every
 * value in TypeScript (no `random()`/`now()` in SQL) so replay is deterministic.
 */
export interface LedgerDb {
  read<T>(fn: (db: SqlReader) => T): T;
  write<T>(fn: (db: SqlWriter) => T): Promise<T>;
  readonly onDidChange: Event<StoreChange>;
  /** Highest journal sequence number applied in this process. */
  readonly seq: number;
}

// ---------------------------------------------------------------------------------------
// The asynchronous store port (store/engine.ts implements it twice: embedded and PostgreSQL).
// Every service of the domain is written against it.
// ---------------------------------------------------------------------------------------

/** Statements that read. Inside `read`, every statement sees one consistent state of the ledger. */
export interface AsyncSqlReader {
  /** The first row, or undefined. */
  get<T = Row>(sql: string, params?: SqlParams): Promise<T | undefined>;
  all<T = Row>(sql: string, params?: SqlParams): Promise<T[]>;
}

/** Statements of one write transaction. */
export interface AsyncSqlWriter extends AsyncSqlReader {
  /** Executes one statement; `changes` is the number of rows it inserted, updated or deleted. */
  run(sql: string, params?: SqlParams): Promise<{ changes: number }>;
  /**
   * Inserts one row and returns its key: the statement gets ` RETURNING id` appended unless it
   * already ends with a RETURNING clause of its own (e.g. `RETURNING seq` for events). Refuses
   * (`sql` StoreError) when no row was inserted, e.g. an `ON CONFLICT DO NOTHING` that did nothing.
   */
  insert(sql: string, params?: SqlParams): Promise<number>;
}

/** What `waitForChange` resolved with. */
export interface WaitResult {
  /** The ledger's commit seq when the wait ended (> afterSeq unless it timed out). */
  seq: number;
  timedOut: boolean;
}

export interface WaitOptions {
  /** Give up after this long and resolve with `timedOut: true` (default 50,000 ms, under MCP clients' 60 s). */
  timeoutMs?: number;
  /** Aborting rejects the wait with the signal's reason. */
  signal?: AbortSignal;
}

export type EngineKind = 'embedded' | 'postgres';

/** What `describe()` tells: safe to print and log (a URL's password is always redacted). */
export interface EngineDescription {
  kind: EngineKind;
  /** The image's path, or the server URL with its password replaced by `***`. */
  location: string;
  /** The ledger schema version the store holds. */
  schemaVersion: number;
}

/**
 * One ledger store. The commit seq (`seq`, `waitForChange`) counts committed writes that changed
 * something, on every process and machine alike: it never goes back, two writes never share one,
 * and a write with seq N is visible to every reader before any write with seq N+1 (so cursors on
 * it, and on the `events` table's seq which writes append under the same ordering, never skip or
 * repeat). See docs/store-engines.md.
 */
export interface LedgerEngine {
  readonly kind: EngineKind;
  /**
   * Runs `fn` on one consistent state of the ledger, including every write this process made
   * and every write of others that committed before the call. Never sees a write in progress.
   */
  read<T>(fn: (db: AsyncSqlReader) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` as one transaction: committed and durable when the promise resolves, rolled back
   * when `fn` throws (nothing of it is visible, anywhere). Writes of all processes are serialised.
   * `fn` computes every value in TypeScript (no `random()`/`now()` in SQL) and does nothing but
   * statements: on PostgreSQL it runs again when the connection fails before COMMIT was sent.
   * A statement that fails loses the transaction: later statements of the same `fn` throw
   * `aborted` (both engines behave as PostgreSQL does). Use `ON CONFLICT` instead of catching.
   */
  write<T>(fn: (tx: AsyncSqlWriter) => Promise<T>): Promise<T>;
  /** Fired when this process learns of commits it had not seen (its own or another's). */
  readonly onDidChange: Event<StoreChange>;
  /** Highest commit seq this process knows of. */
  readonly seq: number;
  /**
   * Resolves the moment any process or machine has committed a write past `afterSeq` (at once
   * when one already has), or when `timeoutMs` passes. Costs no CPU while waiting, holds no lock
   * and no transaction.
   */
  waitForChange(afterSeq: number, options?: WaitOptions): Promise<WaitResult>;
  describe(): EngineDescription;
  /** Ends waits (they resolve as timed out), stops watching and closes files or connections. */
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------
// Workspace truth (Git, or an MD5 manifest outside Git)
// ---------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------
// Git worktrees (one per task, seed 002's workers)
// ---------------------------------------------------------------------------------------

/** What an agent may see in its worktree: globs applied with Git's sparse checkout. */
export interface CheckoutScope {
  /** Globs of files checked out (`["**\/*"]` = everything). */
  read: string[];
  /** Globs of files never checked out, even when `read` matches them. */
  exclude: string[];
}

export interface PreparedWorktree {
  /** Absolute path of the worktree. */
  path: string;
  /** Absolute folder inside it that corresponds to the workspace (the worktree itself unless the workspace is a subfolder of the repository). */
  cwd: string;
  /** The branch checked out in it. */
  branch: string;
  /** The commit it was created from (HEAD of the workspace); for a reused worktree, its current HEAD. */
  base: string;
  /** False when an existing worktree was reused as it was. */
  created: boolean;
  /** True when a sparse checkout limits what is checked out. */
  sparse: boolean;
}

export interface WorktreeState {
  exists: boolean;
  branch: string | null;
  /** Uncommitted changes (tracked or untracked, not ignored). */
  dirty: boolean;
  /** The branch's commits are all reachable from the workspace's HEAD. */
  merged: boolean;
  /** Disk used by the worktree's files (allocated blocks). */
  sizeBytes: number;
}

export interface WorktreeRemoval {
  freedBytes: number;
  /** The branch was merged and deleted with the worktree. */
  branchDeleted: boolean;
}

/**
 * Git worktrees of the workspace's repository. Paths are absolute and must lie under the
 * workspace's `.agent-ledger/worktrees/`; implementations refuse any other.
 */
export interface Worktrees {
  /**
   * Creates the worktree on a new `branch` from HEAD with `scope` applied, or reuses the one at
   * `path` on its own branch. A reused one gets `scope` when it differs, unless `keepScope`
   * (another session works there: its checkout must not change under it).
   */
  prepare(path: string, branch: string, scope: CheckoutScope, options: { keepScope: boolean }): Promise<PreparedWorktree>;
  inspect(path: string, branch: string | null): Promise<WorktreeState>;
  /** Removes the worktree (refusing uncommitted changes unless `force`) and deletes its branch when merged. */
  remove(path: string, options: { force: boolean }): Promise<WorktreeRemoval>;
  /** The workspace truth of a worktree, for snapshots and diffs taken there. */
  truth(path: string): Promise<WorkspaceTruth>;
}
