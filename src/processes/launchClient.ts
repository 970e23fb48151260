/**
 * Runs a launch plan of an agent CLI (core/runtime/clients) under the supervisor: writes its
 * configuration files (owner-only), starts it with the plan's arguments and an explicit
 * environment, and reads back the tokens and cost its output reported.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { writeFileConfined } from '../core/files/confinedPath';
import { writeFileDurable } from '../core/files/durableWrite';
import type { ClientKind, LaunchFile, LaunchPlan } from '../core/runtime/launch/clientLaunch';
import { clientPackages, parseRunOutput } from '../core/runtime/launch/clients';
import type { CommandTemplate } from '../core/runtime/launch/commandTemplate';
import { ProcessError } from '../core/runtime/processErrors';
import { resolveProgram } from './programPath';
import type { RunUsage } from '../core/runtime/launch/runUsage';
import type { ProcessExit, ProcessLimits, ProcessSupervisorPort, RunningProcess } from '../core/ports/processes';
import { readLog } from './logReader';
import type { WorktreeSetup } from '../core/runtime/runner/runnerPort';
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
  /** The run's log already holds its worktree's setup (runSetup): the client's output follows it. */
  continuesLog?: boolean;
}

/** Writes the plan's files and starts it. */
export async function launchClient(
  supervisor: ProcessSupervisorPort,
  plan: LaunchPlan,
  options: ClientRunOptions,
): Promise<RunningProcess> {
  await writePlanFiles(plan, options.root);
  if (!options.continuesLog) await setAsideOldLog(options.logDir, options.id);
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

/**
 * Makes the plan's private homes, then writes its files (owner-only), inside `root` by their real
 * path when given: written beside the name and renamed over it, a link planted there is replaced,
 * never written through.
 */
export async function writePlanFiles(plan: Pick<LaunchPlan, 'files' | 'homes'>, root?: string): Promise<void> {
  for (const home of plan.homes) {
    await fs.promises.mkdir(home.path, { recursive: true, mode: 0o700 });
    await overlay(
      home.path,
      home.source,
      plan.files.map((f) => path.resolve(f.path)),
    );
  }
  for (const file of plan.files) {
    const content = await contentOf(file);
    if (root !== undefined) writeFileConfined(root, file.path, content, 0o600);
    else writeFileDurable(file.path, content, 0o600);
  }
}

/**
 * Links every entry of the user's folder `source` into `dir`, but for the files the plan writes:
 * a folder that holds one is made in `dir` and its own entries linked one by one, so nothing is
 * ever written into the user's folder.
 */
async function overlay(dir: string, source: string | null, written: readonly string[]): Promise<void> {
  if (source === null || !(await isFolder(source))) return;
  for (const name of await fs.promises.readdir(source)) {
    const target = path.join(dir, name);
    const inside = written.filter((w) => w === target || w.startsWith(`${target}${path.sep}`));
    if (inside.length === 0) {
      await fs.promises.symlink(path.join(source, name), target).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
    } else if (inside.some((w) => w !== target) && (await isFolder(path.join(source, name)))) {
      await fs.promises.mkdir(target, { recursive: true, mode: 0o700 });
      await overlay(target, path.join(source, name), inside);
    }
  }
}

async function isFolder(p: string): Promise<boolean> {
  return fs.promises.stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** The file's text: its content, or (JSON settings) the user's file with it laid over and defaults under. */
async function contentOf(file: LaunchFile): Promise<string> {
  if (file.mergeJsonFrom === undefined && file.jsonDefaults === undefined) return file.content;
  const ours = JSON.parse(file.content) as Record<string, unknown>;
  const theirs = file.mergeJsonFrom ? await readJsonObject(file.mergeJsonFrom) : {};
  return `${JSON.stringify(layOver(layOver(file.jsonDefaults ?? {}, theirs), ours), null, 2)}\n`;
}

/** A settings file as an object (comments allowed, as Gemini CLI reads it); `{}` when missing or not an object. */
async function readJsonObject(file: string): Promise<Record<string, unknown>> {
  const text = await fs.promises.readFile(file, 'utf8').catch(() => null);
  if (text === null) return {};
  const value: unknown = parseJsonc(text, [], { allowTrailingComma: true });
  return isObject(value) ? value : {};
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `top` over `base`: objects merged key by key, anything else replaced. */
function layOver(base: Record<string, unknown>, top: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(top))
    out[key] = isObject(value) && isObject(out[key]) ? layOver(out[key], value) : value;
  return out;
}

/**
 * A new worktree's setup (`.agent-ledger/workspace.yaml` `setup:`): each command through `sh -c`
 * — the project's own commands, read from the main checkout, never text from an agent — under
 * the run's id, so their output is the first part of the run's log. Stops at the first failure
 * and says which command failed, how, and its last line; once all succeeded, writes `doneFile`.
 */
export async function runSetup(
  supervisor: ProcessSupervisorPort,
  setup: WorktreeSetup,
  options: { id: string; logDir: string; cwd: string; env: Readonly<Record<string, string>>; limits: ProcessLimits },
): Promise<{ failed: string; logFile: string } | null> {
  await setAsideOldLog(options.logDir, options.id);
  let logFile = '';
  for (const command of setup.commands) {
    const proc = await supervisor.start({
      id: options.id,
      program: '/bin/sh',
      args: ['-c', command],
      cwd: options.cwd,
      env: options.env,
      logDir: options.logDir,
      limits: options.limits,
      labels: { role: 'agent-ledger-setup', executionId: options.id },
    });
    const exit = await proc.exited;
    logFile = exit.logFile;
    if (exit.exitCode !== 0 || exit.limit !== null) {
      const how = exit.limit
        ? `ran past its ${exit.limit} limit`
        : exit.signal
          ? `was killed by ${exit.signal}`
          : `exited with code ${exit.exitCode}`;
      const last = exit.tail.filter((l) => l.trim() !== '').at(-1);
      return { failed: `the worktree's setup failed: \`${command}\` ${how}${last ? `: ${last}` : ''}`, logFile };
    }
  }
  await fs.promises.writeFile(setup.doneFile, `${new Date().toISOString()}\n`, { mode: 0o600 });
  return null;
}

/**
 * A log of this id left by another run (a ledger recreated in the same place numbers its runs
 * from 1 again) is moved aside, never appended to: its output, and the cost read back from it,
 * would be credited to this run.
 */
async function setAsideOldLog(logDir: string, id: string): Promise<void> {
  const log = logFileOf(logDir, id);
  // A link there is left for the supervisor to refuse, never moved out of sight.
  if (fs.lstatSync(log, { throwIfNoEntry: false })?.isFile())
    await fs.promises.rename(log, `${log.slice(0, -'.log'.length)}.before-${Date.now()}.log`);
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
