/**
 * `agent-ledger runner` as a child process of another program (the editor's Start Runner): the
 * same runner a terminal runs, under the process supervisor, with its JSON events read back from
 * its log as they are written.
 *
 * It never outlives its parent: the runner gets `--stop-with-stdin` and a stdin pipe only the
 * parent holds, so when the parent exits — cleanly, crashing or killed — the pipe closes and the
 * runner stops its agents (each leaves its execution log) and exits. A clean stop is SIGTERM to
 * the runner's process group (the same), then SIGKILL after a grace long enough for the agents'
 * own stop (their SIGTERM, SIGKILL after 2 s) and their execution logs.
 */
import * as path from 'node:path';
import type { Disposable, Event } from '../../core/emitter';
import { Emitter } from '../../core/emitter';
import type { RunnerEvent } from '../../core/runtime/runner/runner';
import type { LogEntry, ProcessExit } from '../../core/ports/processes';
import { followLog } from '../../processes/logReader';
import { ProcessSupervisor } from '../../processes/processSupervisor';

/** What the runner process says: its runner events, and lines it prints on stderr. */
export type RunnerProcessEvent = RunnerEvent | { kind: 'stderr'; message: string };

export interface RunnerProcessOptions {
  /** Absolute path of the program that runs Node scripts (the editor's runtime: `process.execPath`). */
  node: string;
  /** Absolute path of the built CLI (dist/cli.js). */
  cliPath: string;
  workspace: string;
  /** Where the runner's own log and record go (the folder's `.agent-ledger/runs`). */
  logDir: string;
  /** The runner's complete environment (PATH for the agents' clients; ELECTRON_RUN_AS_NODE for the editor's runtime). */
  env: Readonly<Record<string, string>>;
  worktreesDir?: string;
  intervalSeconds?: number;
  maxParallel?: number;
}

export interface RunnerProcess {
  readonly pid: number;
  /** The runner's log (JSON Lines, redacted). */
  readonly logFile: string;
  readonly onDidEmit: Event<RunnerProcessEvent>;
  /** Resolves when the runner has exited and its log is complete. */
  readonly exited: Promise<ProcessExit>;
  /** Stops the runner and, through it, its agents; resolves when it has exited. */
  stop(): Promise<ProcessExit>;
}

/** The id of the editor's runner process in the log folder: a second window's start is refused while one runs. */
export const editorRunnerId = 'editor-runner';

/** Time for the runner to stop its agents and write their execution logs before it is killed. */
const stopGraceMs = 15_000;

export async function startRunnerProcess(o: RunnerProcessOptions): Promise<RunnerProcess> {
  const supervisor = new ProcessSupervisor({ root: o.workspace });
  const args = [o.cliPath, 'runner', '--json', '--stop-with-stdin', '--workspace', o.workspace];
  if (o.worktreesDir) args.push('--worktrees-dir', o.worktreesDir);
  if (o.intervalSeconds !== undefined) args.push('--interval', String(o.intervalSeconds));
  if (o.maxParallel !== undefined) args.push('--max-parallel', String(o.maxParallel));
  const proc = await supervisor.start({
    id: editorRunnerId,
    program: path.resolve(o.node),
    args,
    cwd: o.workspace,
    env: o.env,
    stdin: { kind: 'pipe' },
    logDir: o.logDir,
    limits: { killGraceMs: stopGraceMs },
    labels: { role: 'agent-ledger-editor-runner' },
  });
  const emitter = new Emitter<RunnerProcessEvent>();
  const onEntries = (entries: LogEntry[]): void => {
    for (const e of entries) {
      if (e.stream === 'stdout') {
        const event = parseEvent(e.message);
        if (event) emitter.fire(event);
      } else if (e.stream === 'stderr' && e.message.trim()) {
        emitter.fire({ kind: 'stderr', message: e.message });
      }
    }
  };
  const following: Disposable = followLog(proc.record.logFile, onEntries, { intervalMs: 200 });
  const exited = proc.exited.then(async (exit) => {
    // The last lines it wrote before exiting (the ends of the agents it stopped).
    await new Promise((resolve) => setTimeout(resolve, 300));
    following.dispose();
    emitter.dispose();
    return exit;
  });
  return {
    pid: proc.pid,
    logFile: proc.record.logFile,
    onDidEmit: emitter.event,
    exited,
    stop: async () => {
      await supervisor.stop(editorRunnerId, { graceMs: stopGraceMs });
      return exited;
    },
  };
}

function parseEvent(line: string): RunnerEvent | undefined {
  try {
    const value = JSON.parse(line) as { kind?: unknown };
    return typeof value === 'object' && value !== null && typeof value.kind === 'string'
      ? (value as RunnerEvent)
      : undefined;
  } catch {
    return undefined;
  }
}
