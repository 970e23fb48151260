import * as path from 'node:path';
import { LedgerStore } from './store/ledgerStore';
import { parseLedgerLocation, redactUrl } from './store/location';
import { LedgerError } from './core/errors';
import { EmbeddedEngine } from './store/embedded/embeddedEngine';
import { openWorkspaceTruth } from './git/workspaceTruth';
import { ensureExcluded } from './git/exclude';
import { currentBranch } from './git/branch';
import type { LedgerEngine, WorkspaceTruth } from './core/ports';
import { systemClock } from './core/time';
import type { Clock } from './core/time';
import { TrackingService } from './core/tasks/trackingService';
import { WorkflowService } from './core/workflows/workflowService';
import { LedgerQueries } from './core/tasks/ledgerQueries';
import type { Task } from './core/tasks/taskModel';
import { GitWorktrees } from './git/worktrees';
import { TaskService } from './core/tasks/taskService';
import { AgentRegistry } from './core/agents/agentRegistry';
import { MemoryBank } from './core/memory/memoryBank';
import { SessionService } from './core/sessions/sessionService';
import { WorkerService } from './core/workers/workerService';
import { WorktreeCleanup } from './core/workers/worktreeCleanup';
import { PipelineService } from './core/pipelines/pipelineService';
import { RewindService } from './core/tasks/rewindService';
import { findDefaultsDir } from './core/pipelines/files/flowFiles';
import { confinedPath } from './core/files/confinedPath';
import { worktreeFolder, workspaceWorktreesDir } from './core/workers/worktreeRepo';
import { BlackboardService } from './core/coordination/blackboardService';
import { BoardQueries } from './core/board/boardQueries';

/** Where a workspace's ledger lives. */
export interface LedgerPaths {
  workspace: string;
  /** `<workspace>/.agent-ledger` */
  dataDir: string;
  /** `<workspace>/.agent-ledger/ledger.db` unless overridden with `--db`. */
  dbPath: string;
  /** The folder of this workspace's task worktrees: `<workspace>/.agent-ledger/worktrees`, or one the user chose. */
  worktreesDir: string;
}

export function ledgerPaths(workspace: string, dbPath?: string, worktreesDir?: string): LedgerPaths {
  const ws = path.resolve(workspace);
  const dataDir = path.join(ws, '.agent-ledger');
  return {
    workspace: ws,
    dataDir,
    dbPath: dbPath ? path.resolve(dbPath) : path.join(dataDir, 'ledger.db'),
    worktreesDir: worktreesDir ? workspaceWorktreesDir(worktreesDir, ws) : path.join(dataDir, 'worktrees'),
  };
}

/**
 * The store's files, unless the user named them (`--db`), must stay inside the workspace by
 * their real path: `.agent-ledger/` or `ledger.db`/`ledger.journal`/`ledger.lock` committed as
 * links would make every write land outside.
 */
function confineStore(paths: LedgerPaths, explicitDb: boolean): void {
  if (explicitDb) return;
  confinedPath(paths.workspace, paths.dataDir);
  const base = paths.dbPath.replace(/\.db$/, '');
  for (const file of [paths.dbPath, `${base}.journal`, `${base}.lock`]) confinedPath(paths.workspace, file);
}

/** Machine-local files kept out of Git (DESIGN.md); memory/ and agents/ are meant to be committed. */
export const excludedFromGit = ['.agent-ledger/ledger.*', '.agent-ledger/worktrees/', '.agent-ledger/snapshots/'];

export interface ServiceOptions {
  workspace: string;
  dbPath?: string;
  readonly?: boolean;
  /** Poll the journal so other processes' writes are noticed without reads (views, MCP notifications). */
  watch?: boolean;
  clock?: Clock;
  /** Let agents answer pipeline checkpoints with `user_response` (`mcp serve --allow-agent-checkpoints`); off: a person decides. */
  allowAgentCheckpoints?: boolean;
  /**
   * Where task worktrees go when not `.agent-ledger/worktrees` (`--worktrees-dir`, the
   * `agentLedger.worktreesDir` setting): always the user's word, never a file of the repository.
   */
  worktreesDir?: string;
}

export interface Services {
  paths: LedgerPaths;
  store: LedgerStore;
  /**
   * The same ledger behind the asynchronous port (core/ports.ts LedgerEngine): what new families
   * are written against, so they run unchanged on the embedded store and on PostgreSQL. Calls
   * that wait for something use its `waitForChange`.
   */
  engine: LedgerEngine;
  truth(): Promise<WorkspaceTruth>;
  /** The branch checked out in the workspace, or null (detached, or not a Git repository). */
  currentBranch(): Promise<string | null>;
  /** start_workflow, and workflows as the views and the CLI list them. */
  workflows: WorkflowService;
  tracking: TrackingService;
  queries: LedgerQueries;
  /** Seed 003's pipelines: the four pipeline_* tools, `agent-ledger pipeline`, the Pipelines view. */
  pipelines: PipelineService;
  /** Seed 002: task_list/get/create/update over the same tasks. */
  tasks: TaskService;
  /** Agent definitions (.agent-ledger/agents/), indexed in the store. */
  agents: AgentRegistry;
  /** Memory Bank entries (.agent-ledger/memory/<category>/<id>.md), indexed in the store. */
  memory: MemoryBank;
  sessions: SessionService;
  /** worker_command: a worktree per task, a session, the client's launch command. */
  workers: WorkerService;
  /** Removes task worktrees on demand or by retention. */
  worktreeCleanup: WorktreeCleanup;
  /** Puts a task's files back as they were at its snapshot, and undoes that (the editor's Rewind). */
  rewind: RewindService;
  /** The blackboard (bb_* tools of the orchestrator family), over the asynchronous port. */
  blackboard: BlackboardService;
  /** Read models of the editor's Board and plan graph (the asynchronous port: both engines). */
  board: BoardQueries;
  dispose(): void;
}

/** The one composition root: the extension, every MCP server process and the CLI build these. */
export async function createServices(options: ServiceOptions): Promise<Services> {
  const dbPath = embeddedDbPath(options.dbPath);
  const paths = ledgerPaths(options.workspace, dbPath, options.worktreesDir);
  confineStore(paths, dbPath !== undefined);
  const store = await LedgerStore.open({ dbPath: paths.dbPath, readonly: options.readonly });
  if (options.watch) store.watch();
  if (!options.readonly) {
    await ensureExcluded(paths.workspace, excludedFromGit).catch((err) => console.error('[agent-ledger] could not update .git/info/exclude:', err));
  }
  let truth: Promise<WorkspaceTruth> | undefined;
  const getTruth = (): Promise<WorkspaceTruth> => {
    truth ??= openWorkspaceTruth(paths.workspace, path.join(paths.dataDir, 'snapshots'));
    truth.catch(() => (truth = undefined));
    return truth;
  };
  const clock = options.clock ?? systemClock;
  const explicitWorktrees = options.worktreesDir !== undefined;
  const worktrees = new GitWorktrees(paths.workspace, paths.worktreesDir, { explicit: explicitWorktrees });
  // A task started by a worker is measured in its worktree, where the work happens.
  const truthOf = (task?: Task): Promise<WorkspaceTruth> => (task?.worktree ? worktrees.truth(worktreeFolder(paths.workspace, task.worktree)) : getTruth());
  const tracking = new TrackingService(store, truthOf, clock);
  const queries = new LedgerQueries(store);
  const fileMode = { readonly: options.readonly === true };
  const agents = new AgentRegistry(store, paths.workspace, clock, fileMode);
  const memory = new MemoryBank(store, paths.workspace, clock, fileMode);
  const pipelines = new PipelineService(store, tracking, queries, clock, {
    root: paths.workspace,
    defaultsDir: findDefaultsDir(__dirname),
    allowAgentCheckpoints: options.allowAgentCheckpoints === true,
  });
  const engine = EmbeddedEngine.over(store);
  return {
    paths,
    store,
    engine,
    truth: getTruth,
    currentBranch: () => currentBranch(paths.workspace),
    workflows: new WorkflowService(store, clock),
    tracking,
    queries,
    pipelines,
    tasks: new TaskService(store, clock),
    agents,
    memory,
    sessions: new SessionService(store, agents, getTruth, clock),
    workers: new WorkerService({ db: store, agents, memory, worktrees, clock, workspace: paths.workspace, worktreesDir: explicitWorktrees ? paths.worktreesDir : undefined }),
    worktreeCleanup: new WorktreeCleanup(store, worktrees, clock, paths.workspace),
    rewind: new RewindService(store, getTruth, clock),
    blackboard: new BlackboardService(engine, () => clock.now().getTime()),
    board: new BoardQueries(engine),
    dispose: () => {
      pipelines.dispose();
      // The engine ends its waits at once; the store closes now, as every face expects of dispose().
      void engine.close();
      store.close();
    },
  };
}

/**
 * `--db` as the domain can open it today: a file path (or file:// URL) of an embedded image. A
 * URL is never a path: an unsupported scheme is refused (StoreError badLocation), and a
 * postgres:// URL is refused with a ConfigError until the domain runs on the asynchronous port
 * (issue 13) — only `db init|migrate|copy` take it — instead of creating a `postgres:` folder.
 */
function embeddedDbPath(dbPath: string | undefined): string | undefined {
  if (dbPath === undefined) return undefined;
  const location = parseLedgerLocation(dbPath, process.cwd());
  if (location.kind === 'embedded') return location.dbPath;
  throw new LedgerError('ConfigError', `${redactUrl(location.url)}: the tools, CLI commands and views run on the embedded store for now; a PostgreSQL ledger is served by agent-ledger db init|migrate|copy only`);
}
