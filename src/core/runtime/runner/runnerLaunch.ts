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
import type { LaunchTarget, RunStart, RunnerLedger } from './runnerPort';
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
    },
  ): Promise<RunningProcess>;
  usage(exit: ProcessExit, format: LaunchPlan['output']): Promise<RunUsage | null>;
  /** What is missing to start `client` with `env` (it is not on its PATH), or undefined when it can start. */
  missing?(client: ClientKind | CommandTemplate, env: Readonly<Record<string, string>>): string | undefined;
}

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
  const ticket = launchToken === undefined ? await ledger.issueLaunchTicket(executionId) : undefined;
  const plan = buildLaunchPlan(target.client, {
    prompt: launchPrompt(target),
    cwd: target.cwd,
    configDir,
    mcpServers: [serverFor(settings.ledgerServer, target, ticketFile)],
    model: target.model,
    maxTurns: target.maxTurns,
    access: target.access,
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
