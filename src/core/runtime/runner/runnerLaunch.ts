/**
 * Starting one claimed instance: the launch plan of the agent's client in the task's folder,
 * wired to this ledger's MCP server, with the run's single-use ticket in the environment only.
 * The runner (runner.ts) decides and records; this file builds what to start and hands it to the
 * client launcher (src/processes/clients), which spawns it under the supervisor.
 */
import * as path from 'node:path';
import type { ClientKind, LaunchPlan, McpServerLaunch } from '../launch/clientLaunch';
import type { CommandTemplate } from '../launch/commandTemplate';
import { buildLaunchPlan } from '../launch/clients';
import type { RunUsage } from '../launch/runUsage';
import type { ProcessExit, ProcessLimits, RunningProcess } from '../../ports/processes';
import type { LaunchTarget, RunStart, RunnerLedger, WorktreeSetup } from './runnerPort';
import { launchPrompt } from './launchPrompt';

/** Starts a launch plan under the supervisor and reads back the usage it printed (src/processes/clients). */
export interface ClientLauncher {
  launch(
    plan: LaunchPlan,
    options: {
      id: string;
      logDir: string;
      env: Readonly<Record<string, string>>;
      secretEnv: Readonly<Record<string, string>>;
      /** Strings redacted from the log (the launch ticket, should the agent find and print it). */
      redact: readonly string[];
      limits: ProcessLimits;
      labels: Readonly<Record<string, string>>;
      /** The run's log already holds its worktree's setup: the client's output follows it. */
      continuesLog?: boolean;
    },
  ): Promise<RunningProcess>;
  usage(exit: ProcessExit, format: LaunchPlan['output']): Promise<RunUsage | null>;
  /**
   * Runs a new worktree's setup commands in order under the run's id (their output goes to the
   * run's log, before the agent's), stopping at the first that fails; writes `setup.doneFile`
   * once all succeeded. Resolves with why it failed, or null.
   */
  setup?(
    setup: WorktreeSetup,
    options: { id: string; logDir: string; cwd: string; env: Readonly<Record<string, string>>; limits: ProcessLimits },
  ): Promise<{ failed: string; logFile: string } | null>;
  /**
   * What is missing to start `client` with `env` (it is not on its PATH, or has no key or login to
   * reach its model), or undefined when it can start.
   */
  missing?(
    client: ClientKind | CommandTemplate,
    env: Readonly<Record<string, string>>,
  ): string | undefined | Promise<string | undefined>;
}

/** The worktree's setup failed: the agent is not started, and the run fails with this reason. */
export class SetupFailed extends Error {
  constructor(
    message: string,
    readonly logFile: string,
  ) {
    super(message);
    this.name = 'SetupFailed';
  }
}

/** How long a worktree's setup may run (an `npm ci` of a large project takes minutes). */
export const setupWallClockMs = 20 * 60_000;

/** The variable an older runner carried the launch ticket in (still read, and removed, by the server). */
export const launchTicketVariable = 'AGENT_LEDGER_LAUNCH_TICKET';

/** The variable that carries a run's launch token to its client, for an HTTP ledger server. */
export const launchTokenVariable = 'AGENT_LEDGER_TOKEN';
/** A launch token lives for the run's wall clock (or this, without one) and a margin. */
const launchTokenDefaultMs = 8 * 3600_000;
const launchTokenMarginMs = 10 * 60_000;

/**
 * The variable that tells the instance's MCP server where its launch ticket is: a file of the run
 * (owner-only) the server reads and deletes as it starts. The ticket itself is in no environment,
 * so neither the client, nor the server, nor anything they start (the agent's shell commands) has it.
 */
export const launchTicketFileVariable = 'AGENT_LEDGER_LAUNCH_TICKET_FILE';

const runnerLabel = 'agent-ledger-runner';

/** What starting needs from the runner's options. */
export interface LaunchSettings {
  ledger: RunnerLedger;
  launcher: ClientLauncher;
  ledgerServer: McpServerLaunch;
  logDir: string;
  env: Readonly<Record<string, string>>;
}

/** Starts the client of a claimed instance (`executionId`) and returns the run as the ledger will record it. */
export async function startInstance(
  settings: LaunchSettings,
  target: LaunchTarget,
  executionId: string,
): Promise<{ instance: RunStart & { adopted: false }; proc: RunningProcess; plan: LaunchPlan }> {
  const { ledger, logDir } = settings;
  const { agentId, projectId } = target;
  if (target.setup) {
    if (!settings.launcher.setup) throw new Error('this runner cannot run a worktree setup');
    const failed = await settings.launcher.setup(target.setup, {
      id: executionId,
      logDir,
      cwd: target.setup.cwd,
      env: settings.env,
      limits: { wallClockMs: setupWallClockMs, maxOutputBytes: target.limits.maxOutputBytes },
    });
    if (failed) throw new SetupFailed(failed.failed, failed.logFile);
  }
  const http = settings.ledgerServer.http;
  const configDir = path.join(logDir, `${executionId}.d`);
  const ticketFile = path.join(configDir, 'ticket');
  // Against an HTTP ledger server the ticket is a short-lived agent token, which the client itself
  // sends (its MCP config names the variable); against a stdio server, a ticket in a file only the
  // server reads.
  const launchToken =
    http && ledger.issueLaunchToken
      ? await ledger.issueLaunchToken(
          executionId,
          target,
          (target.limits.wallClockMs ?? launchTokenDefaultMs) + launchTokenMarginMs,
        )
      : undefined;
  // Issued after the setup: a long setup must not let the ticket expire before the agent starts.
  const ticket = launchToken === undefined ? await ledger.issueLaunchTicket(executionId) : undefined;
  const plan = buildLaunchPlan(target.client, {
    prompt: launchPrompt(target),
    cwd: target.cwd,
    configDir,
    mcpServers: [serverFor(settings.ledgerServer, target, ticketFile)],
    model: target.model,
    maxTurns: target.maxTurns,
    permissions: target.permissions,
    env: settings.env,
    appendSystemPrompt: target.systemPrompt,
  });
  // Written with the plan's other files (owner-only, never through a link); the server deletes it as it starts.
  if (ticket !== undefined) plan.files.push({ path: ticketFile, content: ticket });
  const labels = { role: runnerLabel, executionId, agentId, projectId, taskId: target.taskId ?? '' };
  const proc = await settings.launcher.launch(plan, {
    id: executionId,
    logDir,
    env: settings.env,
    secretEnv: http && launchToken !== undefined ? { [http.tokenEnv]: launchToken } : {},
    redact: [launchToken ?? ticket ?? ''].filter((secret) => secret !== ''),
    limits: target.limits,
    labels,
    continuesLog: target.setup !== undefined,
  });
  const client = typeof target.client === 'string' ? target.client : target.client.program;
  const instance = {
    executionId,
    agentId,
    projectId,
    taskId: target.taskId,
    client,
    pid: proc.pid,
    logFile: proc.record.logFile,
    startedAt: proc.record.startedAt,
    adopted: false as const,
  };
  return { instance, proc, plan };
}

/** The ledger's server for one instance: who it logs in as, and where its ticket is (a file name, not the ticket). */
function serverFor(server: McpServerLaunch, target: LaunchTarget, ticketFile: string): McpServerLaunch {
  // An HTTP server knows the agent and project from the token itself.
  if (server.http) return server;
  return {
    ...server,
    env: {
      ...server.env,
      AGENT_LEDGER_AGENT_ID: target.agentId,
      AGENT_LEDGER_PROJECT_ID: target.projectId,
      [launchTicketFileVariable]: ticketFile,
    },
  };
}
