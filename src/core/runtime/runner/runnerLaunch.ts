/**
 * Starting one claimed instance: the launch plan of the agent's client in the task's folder,
 * wired to this ledger's MCP server, with the run's single-use ticket in the environment only.
 * The runner (runner.ts) decides and records; this file builds what to start and hands it to the
 * client launcher (src/processes/clients), which spawns it under the supervisor.
 */
import * as path from 'node:path';
import type { LaunchPlan, McpServerLaunch } from '../launch/clientLaunch';
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
      limits: ProcessLimits;
      labels: Readonly<Record<string, string>>;
    },
  ): Promise<RunningProcess>;
  usage(exit: ProcessExit, format: LaunchPlan['output']): Promise<RunUsage | null>;
}

/** The environment variable that carries the launch ticket to the instance's MCP server. */
export const launchTicketVariable = 'AGENT_LEDGER_LAUNCH_TICKET';

/** The variable that carries a run's launch token to its client, for an HTTP ledger server. */
export const launchTokenVariable = 'AGENT_LEDGER_TOKEN';
/** A launch token lives for the run's wall clock (or this, without one) and a margin. */
const launchTokenDefaultMs = 8 * 3600_000;
const launchTokenMarginMs = 10 * 60_000;

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
  // Against an HTTP ledger server the ticket is a short-lived agent token; against a stdio server, a ticket.
  const secretEnv =
    http && ledger.issueLaunchToken
      ? {
          [http.tokenEnv]: await ledger.issueLaunchToken(
            executionId,
            target,
            (target.limits.wallClockMs ?? launchTokenDefaultMs) + launchTokenMarginMs,
          ),
        }
      : { [launchTicketVariable]: await ledger.issueLaunchTicket(executionId) };
  const plan = buildLaunchPlan(target.client, {
    prompt: launchPrompt(target),
    cwd: target.cwd,
    configDir: path.join(logDir, `${executionId}.d`),
    mcpServers: [serverFor(settings.ledgerServer, target)],
    model: target.model,
    maxTurns: target.maxTurns,
    access: target.access,
    appendSystemPrompt: target.systemPrompt,
  });
  const labels = { role: runnerLabel, executionId, agentId, projectId, taskId: target.taskId ?? '' };
  const proc = await settings.launcher.launch(plan, {
    id: executionId,
    logDir,
    env: settings.env,
    secretEnv,
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

/** The ledger's server for one instance: who it logs in as, and the ticket forwarded by name. */
function serverFor(server: McpServerLaunch, target: LaunchTarget): McpServerLaunch {
  // An HTTP server knows the agent and project from the token itself.
  if (server.http) return server;
  return {
    ...server,
    env: { ...server.env, AGENT_LEDGER_AGENT_ID: target.agentId, AGENT_LEDGER_PROJECT_ID: target.projectId },
    forwardEnv: [...(server.forwardEnv ?? []), launchTicketVariable],
  };
}
