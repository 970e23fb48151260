/**
 * Runs a launch plan of an agent CLI (core/runtime/clients) under the supervisor: writes its
 * configuration files (owner-only), starts it with the plan's arguments and an explicit
 * environment, and reads back the tokens and cost its output reported.
 */
import * as fs from 'node:fs';
import { writeFileConfined } from '../core/files/confinedPath';
import { writeFileDurable } from '../core/files/durableWrite';
import type { LaunchPlan } from '../core/runtime/launch/clientLaunch';
import { clientPackages, parseRunOutput } from '../core/runtime/launch/clients';
import type { ClientKind } from '../core/runtime/launch/clientLaunch';
import type { CommandTemplate } from '../core/runtime/launch/commandTemplate';
import { ProcessError } from '../core/runtime/processErrors';
import { resolveProgram } from './programPath';
import type { RunUsage } from '../core/runtime/launch/runUsage';
import type { ProcessExit, ProcessLimits, ProcessSupervisorPort, RunningProcess } from '../core/ports/processes';
import { readLog } from './logReader';
import { logFileOf } from './processRecords';

export interface ClientRunOptions {
  /** Id of the run (an execution id): names its log. */
  id: string;
  logDir: string;
  /** The environment to start from (PATH, HOME, the client's own API keys…); the plan's variables are added. */
  env: Readonly<Record<string, string>>;
  /** Secrets for the ledger's MCP server (forwarded by name in the plan): in env only, redacted from the log. */
  secretEnv?: Readonly<Record<string, string>>;
  /** More strings redacted from the log (a secret the client does not hold but could find). */
  redact?: readonly string[];
  limits?: ProcessLimits;
  labels?: Readonly<Record<string, string>>;
  /** The folder the plan's files must stay inside by their real path (the workspace); a link at one of them is refused. */
  root?: string;
}

/** Writes the plan's files and starts it. */
export async function launchClient(
  supervisor: ProcessSupervisorPort,
  plan: LaunchPlan,
  options: ClientRunOptions,
): Promise<RunningProcess> {
  // Written beside the name and renamed over it: a link planted there is replaced, never written through.
  for (const file of plan.files) {
    if (options.root !== undefined) writeFileConfined(options.root, file.path, file.content, 0o600);
    else writeFileDurable(file.path, file.content, 0o600);
  }
  // A log of this id left by another run (a ledger recreated in the same place numbers its runs
  // from 1 again) is moved aside, never appended to: its output, and the cost read back from it,
  // would be credited to this run. A link there is left for the supervisor to refuse.
  const log = logFileOf(options.logDir, options.id);
  if (fs.lstatSync(log, { throwIfNoEntry: false })?.isFile())
    await fs.promises.rename(log, `${log.slice(0, -'.log'.length)}.before-${Date.now()}.log`);
  return supervisor.start({
    id: options.id,
    program: plan.program,
    args: plan.args,
    cwd: plan.cwd,
    env: { ...options.env, ...plan.env },
    secretEnv: options.secretEnv,
    redact: options.redact,
    stdin: plan.stdin,
    logDir: options.logDir,
    limits: options.limits,
    labels: options.labels,
    // An agent's wall clock holds even when its runner is frozen or gone (another runner may then take its pair over).
    wallClockBackstop: true,
  });
}

/** What a run printed on stdout, rebuilt from its log (redacted, and cut at the output limit). */
export async function stdoutOf(logFile: string): Promise<string> {
  let text = '';
  let offset = 0;
  for (;;) {
    const slice = await readLog(logFile, { offset, maxBytes: 1024 * 1024 });
    for (const entry of slice.entries)
      if (entry.stream === 'stdout') text += entry.eol === false ? entry.message : `${entry.message}\n`;
    if (slice.nextOffset === offset || slice.nextOffset >= slice.size) return text;
    offset = slice.nextOffset;
  }
}

/** Tokens and cost the client reported in its output, or null (a crash, plain text). */
export async function readRunUsage(
  exit: Pick<ProcessExit, 'logFile'>,
  format: LaunchPlan['output'],
): Promise<RunUsage | null> {
  return parseRunOutput(format, await stdoutOf(exit.logFile));
}

/**
 * What is missing to start `client` with `env`: its program is not on that PATH (the runner's
 * agents get the runner's environment), with the package that installs a built-in client; undefined
 * when it is there.
 */
export function clientMissing(
  client: ClientKind | CommandTemplate,
  env: Readonly<Record<string, string>>,
): string | undefined {
  const program = typeof client === 'string' ? client : client.program;
  try {
    resolveProgram(program, env.PATH);
    return undefined;
  } catch (err) {
    if (!ProcessError.is(err)) throw err;
    if (typeof client === 'string')
      return `${program} is not installed: it is not on the runner's PATH (npm install -g ${clientPackages[client]})`;
    return `${program}, the agent's launch command, is not on the runner's PATH: ${err.message}`;
  }
}
