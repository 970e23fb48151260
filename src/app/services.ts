import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseLedgerLocation } from '../store/location';
import type { LedgerLocation } from '../store/location';
import { openEngine } from '../store/openEngine';
import { openWorkspaceTruth } from '../git/workspaceTruth';
import { ensureExcluded } from '../git/exclude';
import { currentBranch } from '../git/branch';
import type { LedgerEngine } from '../core/ports/store';
import type { WorkspaceTruth } from '../core/ports/workspaceTruth';
import { systemClock } from '../core/time';
import { TrackingService } from '../core/tasks/trackingService';
import { WorkflowService } from '../core/workflows/workflowService';
import { LedgerQueries } from '../core/tasks/ledgerQueries';
import type { Task } from '../core/tasks/taskModel';
import { GitWorktrees } from '../git/worktrees';
import { TaskService } from '../core/tasks/taskService';
import { TaskLifecycle } from '../core/tasks/taskLifecycle';
import { AgentRegistry } from '../core/agents/agentRegistry';
import { MemoryBank } from '../core/memory/memoryBank';
import { SessionService } from '../core/sessions/sessionService';
import { WorkerService } from '../core/workers/workerService';
import { WorktreeCleanup } from '../core/workers/worktreeCleanup';
import { TaskLanding } from '../core/workers/taskLanding';
import { GitLanding } from '../git/landing';
import { GhPullRequests } from '../git/pullRequest';
import { PipelineService } from '../core/pipelines/pipelineService';
import { RewindService } from '../core/tasks/rewindService';
import { findDefaultsDir } from '../core/pipelines/files/flowFiles';
import { worktreeFolder } from '../core/workers/worktreeRepo';
import { BlackboardService } from '../core/coordination/blackboard/blackboardService';
import { ProjectService } from '../core/runtime/pm/projectService';
import { ProjectTaskService } from '../core/runtime/pm/projectTaskService';
import { TaskQueue } from '../core/runtime/pm/taskQueue';
import { HandoffService } from '../core/runtime/pm/handoffService';
import { AgentRuntimeService } from '../core/runtime/pm/agentRuntimeService';
import { RunTracking } from '../core/tasks/runTracking';
import { ExecutionLogService } from '../core/runtime/pm/executionLogs';
import { TaskBriefing } from '../core/runtime/pm/taskBriefing';
import { ChildService } from '../core/runtime/children/childService';
import { ProcessSupervisor } from '../processes/processSupervisor';
import { logReader } from '../processes/logReader';
import { probeProcess, probeProcessSync } from '../processes/processIdentity';
import { ownerProcess, setOwnerProcess } from '../core/machine';
import type { OwnerProcess } from '../core/machine';
import { createSchedulingServices } from '../core/scheduling/schedulingServices';
import { requireStartable } from '../core/scheduling/startGates';
import type { SchedulingServices } from '../core/scheduling/schedulingServices';
import { knowledgeSources } from '../core/scheduling/knowledge/knowledgeSources';
import { changedMarksMsFromEnv, watchedRuns } from '../core/scheduling/stigmergy/changedMarks';
import { GraphService } from '../core/coordination/plans/graphService';
import { GraphTransactionService } from '../core/coordination/plans/transactions/transactionService';
import { StepGuardService } from '../core/scheduling/stepGuards/stepGuards';
import { EventBusService } from '../core/coordination/bus/eventBusService';
import { ResourceService } from '../core/coordination/resources/resourceService';
import { TaskTreeQueries } from '../core/tasks/taskTree';
import { AgentSessionQueries } from '../core/sessions/agentSessions';
import { workflowReport } from '../core/workflows/workflowReport';
import { eventsSince, lastEventSeq } from '../core/events/eventLog';
import type { LedgerEvent } from '../core/events/eventLog';
import { BoardQueries } from '../core/board/boardQueries';
import { ActivityFeed } from '../core/board/activity';
import { CostRollupService } from '../core/costs/costRollup';
import { AgentInstanceService } from '../core/runtime/agentInstances';
import { TaskReviewService } from '../core/tasks/taskReviews';
import { PlanRunService } from '../core/runtime/planRuns/planRunService';
import { TokenService } from '../core/access/tokenService';
import { LedgerSettings } from '../core/access/ledgerSettings';
import { TaskHolds } from '../core/tasks/taskHolds';
import { agentsFolder, localFolders } from '../core/ledgerFiles';
import { agentProgram } from '../core/runtime/children/childPrograms';
import { filesCommittedAsIs } from '../git/committedFiles';
import { confineStore, excludedFromGit, ledgerPaths, runsDirOf } from './ledgerPaths';
import type { LedgerPaths } from './ledgerPaths';
import {
  childEnv,
  databaseEnv,
  ledgerLimits,
  ledgerServerLaunch,
  retryMsOf,
  sessionTtlSeconds,
} from './serviceEnvironment';
import type { LedgerLimits } from '../core/limits/ledgerLimits';
import { WriteQuota } from '../core/limits/writeQuota';
import type { ServiceOptions } from './serviceEnvironment';

/** The one cursor over the events log every face follows (views, resource notifications, watchers). */
export interface LedgerEvents {
  /** The seq of the newest event (0 when there is none). */
  lastSeq(): Promise<number>;
  /** Events after `afterSeq`, oldest first, at most `limit`. */
  since(afterSeq: number, limit?: number): Promise<LedgerEvent[]>;
}

export interface Services {
  paths: LedgerPaths;
  /** The ledger's bounds (docs/limits.md; AGENT_LEDGER_LIMITS), as mcp_info reports them. */
  limits: LedgerLimits;
  /**
   * The ledger behind the asynchronous port (core/ports.ts LedgerEngine): the embedded store or
   * PostgreSQL (`--db postgres://…`); every service runs on it unchanged. Calls that wait for
   * something use its `waitForChange`; views follow its `onDidChange`.
   */
  engine: LedgerEngine;
  /** The events log as the faces read it. */
  events: LedgerEvents;
  /** The Tasks tree's read model (workflows → tasks → sub-tasks). */
  taskTree: TaskTreeQueries;
  /** The Agents & Sessions tree's read model. */
  agentSessions: AgentSessionQueries;
  /** A workflow as Markdown (the editor's Copy report). */
  workflowReport(ref: string | number, generatedAt: Date): Promise<string>;
  truth(): Promise<WorkspaceTruth>;
  /** The branch checked out in the workspace, or null (detached, or not a Git repository). */
  currentBranch(): Promise<string | null>;
  /** start_workflow, and workflows as the views and the CLI list them. */
  workflows: WorkflowService;
  tracking: TrackingService;
  queries: LedgerQueries;
  /** Pipelines: the four pipeline_* tools, `agent-ledger pipeline`, the Pipelines view. */
  pipelines: PipelineService;
  /** The task-management contract: task_list/get/create/update over the same tasks. */
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
  /** A person lands a done task's branch on its base branch, or opens a pull request (`task land`). */
  landing: TaskLanding;
  /** Puts a task's files back as they were at its snapshot, and undoes that (the editor's Rewind). */
  rewind: RewindService;
  /** The blackboard (bb_* tools of the orchestrator family), over the asynchronous port. */
  blackboard: BlackboardService;
  /** Projects of the agent PM (a folder of the workspace with agents assigned), over the asynchronous port. */
  projects: ProjectService;
  /** The agent PM's task and agent tools (list_tasks, assign_task, get_agent_profile…), over the same tasks. */
  projectTasks: ProjectTaskService;
  /** Queues a task for an agent (`task create --agent`): in its project, assigned, in progress, for the runner. */
  queue: TaskQueue;
  /** Task contexts and handoffs between agents. */
  handoffs: HandoffService;
  /** The runner's and agent instances' API: should_start, authenticate, get_my_task, report_completed. */
  runtime: AgentRuntimeService;
  /** Execution logs of agent runs. */
  executions: ExecutionLogService;
  /** What agent runs cost (tokens, dollars, runs), summed from execution logs per task, workflow, agent and project. */
  costs: CostRollupService;
  /** Running agent instances, pending handoffs, an execution's live log, and stopping an instance (the editor's Agents & Sessions view). */
  instances: AgentInstanceService;
  /** The text of the agent-PM prompts (task_start, handoff_template, context_summary). */
  briefings: TaskBriefing;
  /** Child runtimes (child_* tools of the orchestrator family): processes this server starts, recorded for every process. */
  children: ChildService;
  /** Stigmergy, contract-net and the knowledge graph (stig_*, cnp_*, kg_* tools), over the asynchronous port. */
  scheduling: SchedulingServices;
  /** Stored plan graphs (graph_* tools), over the asynchronous port. */
  graphs: GraphService;
  /** Transactions on stored plan graphs (tx_* tools), over the asynchronous port. */
  graphTransactions: GraphTransactionService;
  /** Why plan steps may start or not (values_explain), over the asynchronous port. */
  stepGuards: StepGuardService;
  /** The event bus over the events log (events_subscribe, resource streams, retention). */
  eventBus: EventBusService;
  /** The sc:// registry (resources_* tools). */
  resources: ResourceService;
  /** Read models of the editor's Board and plan graph (the asynchronous port: both engines). */
  board: BoardQueries;
  /** A person's answer to an agent's review requests (the Board's way out of "needs a person"). */
  reviews: TaskReviewService;
  /** Plan runs: behaviour trees over a plan whose task leaves queue tasks for the runner (plan_* tools). */
  planRuns: PlanRunService;
  /** What a person follows, one item per event that matters (`agent-ledger watch`, the web board). */
  activity: ActivityFeed;
  /** Bearer tokens of the HTTP server (`agent-ledger token`): create, list, revoke, verify. */
  tokens: TokenService;
  /** The ledger's own switches and keys (e.g. checkpoints asked in the client), shared by every process. */
  settings: LedgerSettings;
  /** A person's hold on a task (a stopped run holds it; resume lets the runner launch it again). */
  holds: TaskHolds;
  /** Closes the ledger; resolves once the files or connections are closed. */
  dispose(): Promise<void>;
}

/** The one composition root: the extension, every MCP server process and the CLI build these. */
/** The sessions this process starts live in its parent (the CLI's one-shot commands: the shell that ran them). */
export function ownParentsSessions(): void {
  setOwnerProcess(ownerOf(process.ppid));
}

function ownerOf(pid: number): OwnerProcess {
  return { pid, startToken: probeProcessSync(pid)?.startToken ?? null };
}

export async function createServices(options: ServiceOptions): Promise<Services> {
  // A long-lived process (MCP server, extension, runner) is the process of the sessions it starts.
  if (!ownerProcess()) setOwnerProcess(ownerOf(process.pid));
  const location = options.dbPath === undefined ? undefined : parseLedgerLocation(options.dbPath, process.cwd());
  const paths = ledgerPaths(
    options.workspace,
    location?.kind === 'embedded' ? location.dbPath : undefined,
    options.worktreesDir,
  );
  confineStore(paths, location !== undefined);
  const limits = ledgerLimits();
  const where: LedgerLocation = location ?? { kind: 'embedded', dbPath: paths.dbPath };
  const clock = options.clock ?? systemClock;
  // Every service writes through the write quota: what a tool call writes counts against its caller.
  const engine = new WriteQuota(limits, () => clock.now().getTime()).meter(
    await openEngine(where, {
      readonly: options.readonly,
      retryMs: retryMsOf(process.env.AGENT_LEDGER_DB_RETRY_MS),
      env: databaseEnv(options),
    }),
  );
  if (where.kind === 'postgres') paths.dbPath = engine.describe().location;
  paths.runsDir = runsDirOf(paths, { kind: where.kind, where: paths.dbPath });
  // A listener starts the engine's watch (inotify + poll, or LISTEN): other processes' writes
  // are then noticed without reads.
  const watching = options.watch ? engine.onDidChange(() => undefined) : undefined;
  if (!options.readonly) {
    await ensureExcluded(paths.workspace, excludedFromGit).catch((err) =>
      console.error('[agent-ledger] could not update .git/info/exclude:', err),
    );
  }
  let truth: Promise<WorkspaceTruth> | undefined;
  const getTruth = (): Promise<WorkspaceTruth> => {
    truth ??= openWorkspaceTruth(paths.workspace, path.join(paths.dataDir, localFolders.snapshots));
    truth.catch(() => (truth = undefined));
    return truth;
  };
  const explicitWorktrees = options.worktreesDir !== undefined;
  const worktrees = new GitWorktrees(paths.workspace, paths.worktreesDir, { explicit: explicitWorktrees });
  // Where a task's work happens in its worktree (the same folder get_my_task and the runner name).
  const workspaceIn = (worktree: string): Promise<string> => worktrees.workspaceIn(worktree);
  // A task started by a worker is measured in its worktree, where the work happens.
  const truthOf = (task?: Task): Promise<WorkspaceTruth> =>
    task?.worktree ? worktrees.truth(worktreeFolder(paths.workspace, task.worktree)) : getTruth();
  // Whatever ends a task, the same reactions follow (subscribed below, once the scheduler exists).
  const lifecycle = new TaskLifecycle();
  const tracking = new TrackingService(engine, truthOf, clock, requireStartable, lifecycle);
  const queries = new LedgerQueries(engine);
  const fileMode = { readonly: options.readonly === true };
  const agents = new AgentRegistry(engine, paths.workspace, clock, fileMode);
  const memory = new MemoryBank(engine, paths.workspace, clock, fileMode);
  const pipelines = new PipelineService(engine, tracking, queries, clock, {
    root: paths.workspace,
    defaultsDir: findDefaultsDir(__dirname),
    allowAgentCheckpoints: options.allowAgentCheckpoints === true,
  });
  const now = (): Date => clock.now();
  const handoffs = new HandoffService(engine, agents, now);
  const executions = new ExecutionLogService(engine, now);
  const children = new ChildService({
    engine,
    supervisor: new ProcessSupervisor({ root: paths.workspace }),
    logs: logReader,
    workspace: paths.workspace,
    childrenDir: path.join(paths.dataDir, localFolders.children),
    env: () => childEnv(where, options),
    worktreesDir: paths.worktreesDir,
    programs: {
      allowed: options.childPrograms ?? [],
      // Without an agents folder nothing is committed: not read (reading it would write the defaults).
      declared: async () => {
        if (!fs.existsSync(path.join(paths.workspace, agentsFolder))) return [];
        const defined = agents.current().agents;
        const committed = await filesCommittedAsIs(
          paths.workspace,
          defined.map((a) => a.file),
        );
        return defined
          .filter((a) => committed.has(a.file))
          .map((a) => ({ program: agentProgram(a), agent: a.name, file: a.file }));
      },
    },
    clock: () => clock.now().getTime(),
    owner: { pid: process.pid, host: os.hostname() },
    ledgerServer: ledgerServerLaunch(paths, where.kind === 'embedded' && options.dbPath !== undefined, options),
  });
  const epochMs = () => clock.now().getTime();
  const blackboard = new BlackboardService(engine, epochMs, limits);
  const graphs = new GraphService(engine, epochMs, limits);
  const eventBus = new EventBusService(engine, epochMs, {
    maxEvents: limits.eventHistory,
    maxAgeMs: limits.eventAgeMs,
    maxBytes: limits.eventBytes,
  });
  const scheduling = createSchedulingServices(
    engine,
    () => agents.current().agents,
    epochMs,
    {},
    {
      knowledge: knowledgeSources({ pipelines, memory }),
      truth: truthOf,
      changedMarksMs: changedMarksMsFromEnv(process.env),
      knowledgeLimits: limits,
    },
  );
  const projects = new ProjectService(engine, paths.workspace, agents, now);
  // An ended task's marks leave the field and its awarded contract-net calls complete.
  lifecycle.onEnded((taskId) => scheduling.taskEnded(taskId));
  const trackRuns = watchedRuns(new RunTracking(engine, truthOf, clock), scheduling);
  const queue = new TaskQueue(engine, paths.workspace, agents, now);
  const instances = new AgentInstanceService({
    engine,
    supervisor: new ProcessSupervisor(),
    logs: logReader,
    workspace: paths.workspace,
    runsDir: paths.runsDir,
  });
  const planRuns = new PlanRunService({ engine, queue, agents, instances, lifecycle, now: epochMs });
  // A plan run whose task ended takes its next step now: the next task is queued before the call returns.
  lifecycle.onEnded((taskId) => planRuns.taskEnded(taskId));
  return {
    paths,
    limits,
    engine,
    events: {
      lastSeq: () => engine.read(lastEventSeq),
      since: (afterSeq, limit = 500) => engine.read((db) => eventsSince(db, afterSeq, limit)),
    },
    taskTree: new TaskTreeQueries(engine),
    agentSessions: new AgentSessionQueries(engine, probeProcess),
    workflowReport: (ref, generatedAt) => workflowReport(engine, ref, generatedAt),
    truth: getTruth,
    currentBranch: () => currentBranch(paths.workspace),
    workflows: new WorkflowService(engine, clock),
    tracking,
    queries,
    pipelines,
    tasks: new TaskService(engine, clock, lifecycle),
    agents,
    memory,
    sessions: new SessionService(engine, agents, getTruth, clock, lifecycle, probeProcess),
    workers: new WorkerService({
      db: engine,
      agents,
      memory,
      worktrees,
      clock,
      workspace: paths.workspace,
      worktreesDir: explicitWorktrees ? paths.worktreesDir : undefined,
      startGate: requireStartable,
      onStarted: (taskId, agentScope) => scheduling.taskWorkStarted(taskId, agentScope),
    }),
    worktreeCleanup: new WorktreeCleanup(engine, worktrees, clock, paths.workspace),
    landing: new TaskLanding(
      engine,
      worktrees,
      new GitLanding(paths.workspace),
      new GhPullRequests(paths.workspace),
      clock,
      paths.workspace,
    ),
    rewind: new RewindService(engine, getTruth, clock),
    projects,
    projectTasks: new ProjectTaskService(engine, agents, now, lifecycle),
    queue,
    handoffs,
    runtime: new AgentRuntimeService(engine, paths.workspace, agents, now, {
      sessionTtlSeconds: sessionTtlSeconds(),
      tracking: trackRuns,
      lifecycle,
      loginLimits: limits,
      workspaceIn,
    }),
    executions,
    costs: new CostRollupService(engine),
    instances,
    briefings: new TaskBriefing(engine, paths.workspace, agents, handoffs, executions, workspaceIn),
    children,
    scheduling,
    blackboard,
    graphs,
    graphTransactions: new GraphTransactionService(engine, epochMs, limits),
    stepGuards: new StepGuardService(engine, epochMs),
    eventBus,
    resources: new ResourceService(engine, graphs, eventBus, blackboard),
    // The Board's agents (whom a card can be dragged to) are the index's: listed before its first read.
    board: new BoardQueries(engine, scheduling.stigmergy, () => agents.list()),
    reviews: new TaskReviewService(engine, clock),
    planRuns,
    activity: new ActivityFeed(engine),
    tokens: new TokenService(engine, clock, {
      agentExists: (agent) => agents.current().agents.some((a) => a.name === agent),
      projectKeyOf: async (ref) => (await projects.get(ref)).project_id,
    }),
    settings: new LedgerSettings(engine, clock),
    holds: new TaskHolds(engine, clock),
    dispose: () => {
      planRuns.dispose();
      watching?.dispose();
      scheduling.changedMarks?.dispose();
      pipelines.dispose();
      // Children get SIGTERM now (the server is going away); serve.ts records their ends first when it can.
      void children.dispose();
      return agents.indexed().then(() => engine.close());
    },
  };
}
