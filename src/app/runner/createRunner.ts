/**
 * Builds the runner of a workspace's ledger: the ledger side (LedgerForRunner over the services'
 * asynchronous store port), the process supervisor, and the MCP server every instance is wired
 * to — this same program, `agent-ledger mcp serve` with the agent-PM tools on, started by the
 * agent's client. The CLI (`agent-ledger runner`) and the editor (Start Runner) both use it.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import type { McpServerLaunch } from '../../core/runtime/launch/clientLaunch';
import { LedgerForRunner } from '../../core/runtime/runner/ledgerForRunner';
import { Runner } from '../../core/runtime/runner/runner';
import { untiedRunGroup } from '../../core/runtime/runner/runSessions';
import type { Services } from '../services';
import type { CleanupResult } from '../../core/workers/workerContracts';
import { clientMissing, launchClient, readRunUsage, runSetup } from '../../processes/launchClient';
import { ProcessSupervisor } from '../../processes/processSupervisor';
import { ClientAuthChecks } from '../../processes/clientAuthCheck';
import { checkOwnFiles } from '../../core/files/confinedPath';
import { parseId } from '../../core/ids';
import { serverNodeFlags } from '../serverNodeFlags';
import { commitLeftovers, gitDirsOf } from '../../git/worktrees';
import { readWorkspaceSettings } from '../../core/workers/workspaceSettings';
import { launchTokenVariable } from '../../core/runtime/runner/runnerLaunch';
import { LedgerError } from '../../core/errors';

export interface RunnerSetup {
  /** How to start this program: `[node, /abs/path/cli.js]` (the agent's client starts the ledger's server with it). */
  cliCommand: readonly [string, ...string[]];
  /** `--db` as given (a file; a URL travels in AGENT_LEDGER_DB instead, never on a command line). */
  dbPath?: string;
  worktreesDir?: string;
  /** The clients' environment (default: this process's). */
  env?: Readonly<Record<string, string | undefined>>;
  maxParallel?: number;
  /** Launch tasks whose write scope overlaps a running task's (conflict-aware scheduling off). */
  allowOverlap?: boolean;
  /** The team's HTTP ledger server (`mcp serve --http`): agents connect to it with a launch token. */
  serverUrl?: string;
}

export interface LedgerRunner {
  runner: Runner;
  supervisor: ProcessSupervisor;
  logDir: string;
  /**
   * Removes worktrees of landed or abandoned tasks while they use more than the budget of
   * `.agent-ledger/workspace.yaml` (`worktrees.budget`); null when it sets none.
   */
  cleanWorktrees(): Promise<(CleanupResult & { usedBytes: number; budgetBytes: number }) | null>;
  /** Stops every instance (their execution logs are written) and the supervisor. */
  dispose(): Promise<void>;
}

/** Where this ledger's run logs go: under `.agent-ledger/runs/` (kept out of Git: they hold transcripts), one folder per ledger. */
export function runLogDir(services: Services): string {
  return services.paths.runsDir;
}

export function createRunner(services: Services, setup: RunnerSetup): LedgerRunner {
  const logDir = runLogDir(services);
  const root = services.paths.workspace;
  // Logs, records and the clients' MCP configurations go there: a linked runs folder is refused up front.
  checkOwnFiles(root, logDir, []);
  const supervisor = new ProcessSupervisor({ root });
  const authChecks = new ClientAuthChecks();
  const env = cleanEnv(setup.env ?? process.env);
  const ledger = new LedgerForRunner({
    engine: services.engine,
    projects: services.projects,
    runtime: services.runtime,
    agents: services.agents,
    runnerId: `${os.hostname()}:${logDir}`,
    // The task's own worktree and a tracked session, as worker_command prepares them.
    // worker_command checks the scope again in the write that records the session (a race is a hold).
    worktreeFor: async (taskId, agentId, { allowOverlap, client }) => {
      const prepared = await services.workers.command(
        { taskId, agent: agentId, client, allowConcurrent: true, auto: false, force: false, allowOverlap },
        { sessionGroupId: untiedRunGroup },
      );
      return {
        cwd: prepared.cwd,
        sessionId: prepared.sessionId,
        branch: prepared.task.branch,
        gitDirs: await gitDirsOf(prepared.cwd),
      };
    },
    // Read at each launch from the main checkout: an edit applies to the next run.
    workspaceSettings: () => readWorkspaceSettings(services.paths.workspace),
    leftovers: { workspace: services.paths.workspace, commit: commitLeftovers },
    allowOverlap: setup.allowOverlap,
    tokens: services.tokens,
    staleAfterMs: staleAfterMsOf(env.AGENT_LEDGER_RUNNER_STALE_SECONDS),
  });
  const runner = new Runner({
    ledger,
    supervisor,
    launcher: {
      launch: (plan, options) => launchClient(supervisor, plan, { ...options, root }),
      usage: readRunUsage,
      setup: (worktreeSetup, options) => runSetup(supervisor, worktreeSetup, options),
      // Not installed, else no key or login: a client without one fails at once or, Codex, retries for minutes.
      missing: async (client, clientEnv) =>
        clientMissing(client, clientEnv) ??
        (typeof client === 'string' ? await authChecks.missing(client, clientEnv) : undefined),
    },
    ledgerServer: ledgerServerFor(services, setup, env),
    logDir,
    env,
    maxParallel: setup.maxParallel,
    // Plan runs take their next step at each poll: a runner alone carries a plan to its end.
    beforePoll: () => services.planRuns.advanceAll(),
  });
  // worker_command started watching the files of each launched task (changed:task-N marks); a
  // run that ends without finishing its task stops the watch, the marks fade.
  const runEnds = runner.onDidChange((e) => {
    if (e.kind === 'ended' && e.instance.taskId !== null)
      services.scheduling.changedMarks?.unwatch(parseId('task', e.instance.taskId));
  });
  return {
    runner,
    supervisor,
    logDir,
    cleanWorktrees: async () => {
      const budgetBytes = readWorkspaceSettings(services.paths.workspace).worktreeBudgetBytes;
      if (budgetBytes === null) return null;
      return { ...(await services.worktreeCleanup.withinBudget(budgetBytes)), budgetBytes };
    },
    dispose: async () => {
      await runner.stopAll();
      runEnds.dispose();
      await supervisor.dispose();
    },
  };
}

function ledgerServerFor(
  services: Services,
  setup: RunnerSetup,
  env: Readonly<Record<string, string>>,
): McpServerLaunch {
  // The team's server: nothing to start; the client connects with the run's token (runnerLaunch.ts).
  if (setup.serverUrl !== undefined)
    return {
      name: 'agent-ledger',
      command: '',
      args: [],
      http: { url: setup.serverUrl, tokenEnv: launchTokenVariable },
    };
  const [command, ...prefix] = setup.cliCommand;
  // The CLI command is `node <cli.js>` (runnerCommands.ts): the server's Node flags go before the script.
  const args = [...serverNodeFlags, ...prefix, 'mcp', 'serve', '--workspace', services.paths.workspace, '--enable-pm'];
  const isUrl = setup.dbPath !== undefined && /^[a-z][a-z0-9+.-]*:\/\//i.test(setup.dbPath);
  if (setup.dbPath !== undefined && !isUrl) args.push('--db', path.resolve(setup.dbPath));
  if (setup.worktreesDir !== undefined) args.push('--worktrees-dir', setup.worktreesDir);
  // A database URL and its password reach the server by name, from the client's environment.
  const forwardEnv = ['AGENT_LEDGER_DB', 'AGENT_LEDGER_DB_PASSWORD', 'PGPASSWORD'].filter(
    (name) => env[name] !== undefined,
  );
  // Started by the editor, `command` is the editor's own runtime (Electron), which runs a plain
  // Node script only with this variable; clients start servers with a reduced environment.
  const plainEnv = env.ELECTRON_RUN_AS_NODE ? { env: { ELECTRON_RUN_AS_NODE: env.ELECTRON_RUN_AS_NODE } } : {};
  return { name: 'agent-ledger', command, args, forwardEnv, ...plainEnv };
}

/**
 * AGENT_LEDGER_RUNNER_STALE_SECONDS: how long another runner's claim stays held after its last
 * heartbeat (default 120 s). Taking over also waits until that run's agent is provably over (instanceClaims.ts).
 */
function staleAfterMsOf(value: string | undefined): number | undefined {
  const seconds = value === undefined ? NaN : Number(value);
  if (value === undefined) return undefined;
  if (!Number.isFinite(seconds) || seconds < 1)
    throw new LedgerError(
      'ConfigError',
      `AGENT_LEDGER_RUNNER_STALE_SECONDS=${value}: give a number of seconds, at least 1`,
    );
  return Math.round(seconds * 1000);
}

function cleanEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env))
    if (
      value !== undefined &&
      key !== 'AGENT_LEDGER_LAUNCH_TICKET' &&
      key !== 'AGENT_LEDGER_LAUNCH_TICKET_FILE' &&
      key !== launchTokenVariable
    )
      out[key] = value;
  return out;
}
