/**
 * What the runner asks of the ledger. The agent-PM tools (`health_check`,
 * `list_active_projects_with_agents`, `should_start`) answer the same questions for a runner
 * that lives in another process; `agent-ledger runner` calls the service in-process through
 * this port, so one poll over 50 agents × 10 projects is a handful of store reads, not 500
 * JSON-RPC round trips.
 *
 * As in the agent-PM contract, the runner knows projects, agents and whether an (agent,
 * project) pair should run — never the task itself. `prepareLaunch` is the one place it learns
 * where to run (the task's worktree) and how (the agent's client), because it must start the
 * process there.
 */
import type { ClientKind, LaunchPermissions } from '../launch/clientLaunch';
import type { CommandTemplate } from '../launch/commandTemplate';
import type { RunUsage } from '../launch/runUsage';
import type { ProcessExit, ProcessLimits } from '../../ports/processes';

export interface ActiveProject {
  projectId: string;
  projectName: string;
  workingDirectory: string;
  /** Ids of the active agents assigned to the project. */
  agents: string[];
}

export interface StartDecision {
  shouldStart: boolean;
  /** The client the runner will start, when `shouldStart`. */
  aiType?: string;
  /**
   * Why not, when the ledger can say: nothing is queued for the pair, or an instance of it runs
   * elsewhere (another runner's run, or an agent that logged in by itself).
   */
  idle?: IdleReason;
}

export type IdleReason =
  | { reason: 'noTask' }
  | {
      reason: 'running';
      /** The run holding the pair and the runner that launched it (its machine and log folder), when a runner did. */
      executionId: string | null;
      runnerId: string | null;
    };

/** Where and how to start one agent instance. */
export interface LaunchTarget {
  agentId: string;
  agentName: string;
  projectId: string;
  projectName: string;
  /** The task the instance will get from `get_my_task`, when the ledger already knows it (its worktree is `cwd`). */
  taskId: string | null;
  /** Absolute working folder: the project's folder in the task's worktree, else the project's folder (workFolder.ts). */
  cwd: string;
  /** The worker_command session that prepared the worktree (tied to the run when it is claimed, ended with it). */
  sessionId?: number;
  /** The worktree's branch (`task-5-s12`), when the run works in the task's worktree. */
  branch?: string;
  /** A built-in client, or the command template of the agent's definition. */
  client: ClientKind | CommandTemplate;
  model?: string;
  maxTurns?: number;
  /**
   * What the agent may do: its definition's permissions resolved against the project's commands,
   * with the worktree's Git folders (a sandboxed client needs them writable to commit).
   */
  permissions: LaunchPermissions;
  /**
   * Shell commands of the project to run once in this worktree before the agent starts
   * (`.agent-ledger/workspace.yaml` `setup:`), with the file that says they ran; absent when there
   * are none or they already ran there.
   */
  setup?: WorktreeSetup;
  /** Text the client appends to its system prompt (the agent's role). Never a secret. */
  systemPrompt?: string;
  limits: ProcessLimits;
  /**
   * Set when the pair should run but its task may not start now: its dependencies are not done,
   * or what it writes overlaps a running task's scope. The runner does not launch it and says why.
   */
  hold?: LaunchHold;
}

/** The setup of a new worktree: commands run in order in `cwd`, each through `sh -c` (the project's own). */
export interface WorktreeSetup {
  commands: string[];
  /** Where they run: the workspace's folder in the worktree (where `.agent-ledger/workspace.yaml` sits in the main checkout). */
  cwd: string;
  /** Written once every command succeeded (in the worktree's own Git folder, outside its files): not run again. */
  doneFile: string;
}

/** Why a pair that should run is not launched now. */
export interface LaunchHold {
  reason: 'dependencies' | 'conflict' | 'clientMissing';
  detail: string;
  /** The tasks it waits for (`dependencies`) or collides with (`conflict`). */
  blockedBy: string[];
}

/** A run as the ledger records it (an execution log). */
export interface RunStart {
  executionId: string;
  agentId: string;
  projectId: string;
  taskId: string | null;
  client: string;
  pid: number;
  logFile: string;
  startedAt: string;
}

export interface RunEnd extends RunStart {
  exit: ProcessExit;
  /** Tokens and cost the client reported, or null (a crash, plain text output). */
  usage: RunUsage | null;
}

export interface RunnerLedger {
  /** False when the ledger cannot be reached: the poll is skipped. */
  healthCheck(): Promise<boolean>;
  listActiveProjectsWithAgents(): Promise<ActiveProject[]>;
  shouldStart(agentId: string, projectId: string): Promise<StartDecision>;
  /** `shouldStart` for many pairs in one read (same rules): what an in-process runner asks once per poll. */
  startDecisions?(pairs: ReadonlyArray<{ agentId: string; projectId: string }>): Promise<StartDecision[]>;
  /**
   * Where and how to start the pair. `checks.clientMissing` says what is missing to start a client
   * (it is not installed, or cannot reach its model): asked before the worktree is prepared, it makes the target a hold.
   */
  prepareLaunch(agentId: string, projectId: string, checks?: LaunchChecks): Promise<LaunchTarget>;
  /**
   * A single-use secret that lets the run's MCP server log in as its (agent, project) without
   * the passkey: it travels in the environment only, is stored as a digest, and expires.
   */
  issueLaunchTicket(executionId: string): Promise<string>;
  /**
   * For a run wired to an HTTP ledger server: a short-lived agent token (this agent, this project,
   * this run) that is also the run's launch ticket, revoked when the run ends. It travels in the
   * client's environment only.
   */
  issueLaunchToken?(executionId: string, target: LaunchTarget, ttlMs: number): Promise<string>;
  /**
   * Claims the (agent, project) instance for a new run, in one transaction, and opens its
   * execution log: resolves with the execution id (`[A-Za-z0-9._-]+`, it names the run's log),
   * or undefined when another runner (this machine or another) holds the instance with a run
   * still open and alive. The one guarantee that a pair never runs twice, whoever polls.
   */
  claimInstance(target: LaunchTarget): Promise<string | undefined>;
  /** Who holds the pair's instance (after a claim was refused): the run and the runner, when the ledger knows. */
  holderOf?(
    agentId: string,
    projectId: string,
  ): Promise<{ executionId: string | null; runnerId: string | null } | undefined>;
  /**
   * Ends the worktree session prepared for a launch whose claim failed (the store refused the
   * write): left running, it would count its task as worked on. A ledger that prepares none has
   * nothing to do.
   */
  dropPrepared?(sessionId: number, reason: string): Promise<void>;
  /**
   * Gives a claimed instance back when its agent could not be started (its worktree's setup
   * failed, the client could not be spawned); the execution log says why, and where the output
   * of what did run is (`logFile`).
   */
  releaseInstance(executionId: string, reason: string, logFile?: string): Promise<void>;
  /** Says the runs of this runner are still watched (a claim whose heartbeat stops is taken over). */
  heartbeat(executionIds: readonly string[]): Promise<void>;
  /** Runs this runner (same machine and log folder) left open: what a restarted runner looks at first. */
  openRuns(): Promise<RunStart[]>;
  runStarted(run: RunStart): Promise<void>;
  /** Records how the run ended and frees the (agent, project) pair if the agent did not log out; says how the ledger recorded it. */
  runEnded(run: RunEnd): Promise<RunOutcome | void>;
  /**
   * Keeps the runner's reason for not starting a task on the task (null: nothing holds it now), so
   * the agent's row, the Board and `task get` say why it waits — not only the runner's log.
   */
  noteWaiting?(taskId: string, waiting: { reason: string; detail: string; blockedBy: string[] } | null): Promise<void>;
}

/** What the ledger recorded of an ended run: the agent's report, or the process's end when it never reported. */
export interface RunOutcome {
  status: 'completed' | 'failed' | 'error' | 'running' | 'stopped';
  result: 'success' | 'failed' | 'blocked' | null;
  /** Why it failed: the process's end and last output, or the summary of a `failed` report. */
  error: string | null;
  summary: string | null;
}

export interface LaunchChecks {
  /**
   * What is missing to start `client` (it is not installed, or has no key or login to reach its
   * model), or undefined when it can start.
   */
  clientMissing?(client: ClientKind | CommandTemplate): string | undefined | Promise<string | undefined>;
}
