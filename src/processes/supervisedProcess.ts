/**
 * One supervised process: spawned without a shell in its own process group, its output logged
 * by {@link ProcessOutput}, its limits enforced (SIGTERM to the group, SIGKILL after a grace
 * period), its end recorded. The supervisor ({@link ProcessSupervisor}) keeps a set of these.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { ProcessError } from '../core/runtime/processErrors';
import type {
  LimitKind,
  ProcessExit,
  ProcessLimits,
  ProcessRecord,
  ProcessSpec,
  ProcessStatus,
  RunningProcess,
} from '../core/ports/processes';
import type { Redactor } from './lineFramer';
import { groupAlive, signalGroup } from './processGroup';
import { probeProcess, probeProcessSync, startTokensSupported } from './processIdentity';
import { ProcessOutput } from './processOutput';
import { writeRecord } from './processRecords';
import { watchdogSupported, watchedLaunch } from './watchdog';

const defaultGraceMs = 2000;
const defaultTailLines = 40;

/** What the supervisor has checked and resolved before spawning. */
export interface SpawnPlan {
  spec: ProcessSpec;
  programPath: string;
  env: Record<string, string>;
  logFile: string;
  redactor: Redactor;
}

export class SupervisedProcess implements RunningProcess {
  readonly exited: Promise<ProcessExit>;
  private resolveExited!: (exit: ProcessExit) => void;
  private readonly output: ProcessOutput;
  private readonly startedAtMs = Date.now();
  private readonly graceMs: number;
  /** The limits in force (the spec's, until updateLimits). */
  private limits: ProcessLimits;
  private limitHit: LimitKind | null = null;
  private stopped = false;
  private terminating = false;
  private leaderExit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private result: ProcessExit | null = null;
  private readonly timers: {
    wall?: NodeJS.Timeout;
    idle?: NodeJS.Timeout;
    kill?: NodeJS.Timeout;
    drain?: NodeJS.Timeout;
  } = {};
  private child!: ChildProcess;
  record!: ProcessRecord;

  private constructor(
    private readonly plan: SpawnPlan,
    private readonly onExit: (exit: ProcessExit, status: ProcessStatus) => void,
  ) {
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));
    this.graceMs = plan.spec.limits?.killGraceMs ?? defaultGraceMs;
    this.limits = { ...plan.spec.limits };
    this.output = new ProcessOutput({
      logFile: plan.logFile,
      redactor: plan.redactor,
      maxOutputBytes: plan.spec.limits?.maxOutputBytes,
      tailLines: plan.spec.tailLines ?? defaultTailLines,
      onActivity: () => this.armIdle(),
      onLimit: () => this.hitLimit('outputBytes'),
    });
  }

  /** Spawns the process; resolves once it runs and its record is written. */
  static async start(
    plan: SpawnPlan,
    onExit: (exit: ProcessExit, status: ProcessStatus) => void,
  ): Promise<SupervisedProcess> {
    const proc = new SupervisedProcess(plan, onExit);
    await proc.spawn();
    return proc;
  }

  get id(): string {
    return this.plan.spec.id;
  }

  get pid(): number {
    return this.child.pid as number;
  }

  get running(): boolean {
    return this.result === null;
  }

  /** Writes to the child's stdin pipe. */
  send(text: string): Promise<void> {
    const stdin = this.child.stdin;
    if (!this.running)
      return Promise.reject(new ProcessError('notRunning', `Process ${this.id} has ended.`, { id: this.id }));
    if (!stdin || stdin.writableEnded || stdin.destroyed) {
      return Promise.reject(
        new ProcessError(
          'stdinClosed',
          `The input of process ${this.id} is closed (start it with stdin: pipe to send input).`,
          { id: this.id },
        ),
      );
    }
    return new Promise((resolve, reject) =>
      stdin.write(text, (error) =>
        error
          ? reject(
              new ProcessError('stdinClosed', `Could not write to process ${this.id}: ${error.message}`, {
                id: this.id,
              }),
            )
          : resolve(),
      ),
    );
  }

  closeInput(): void {
    this.child.stdin?.end();
  }

  /** New limits for a running process; one already passed ends the run now. */
  updateLimits(limits: ProcessLimits): void {
    if (!this.running) throw new ProcessError('notRunning', `Process ${this.id} has ended.`, { id: this.id });
    this.limits = { ...limits, killGraceMs: this.graceMs };
    this.output.log.meta('limits changed', {
      wallClockMs: limits.wallClockMs ?? null,
      maxOutputBytes: limits.maxOutputBytes ?? null,
      idleMs: limits.idleMs ?? null,
    });
    this.armWallClock();
    this.armIdle();
    this.output.setBudget(limits.maxOutputBytes);
    // Whoever adopts the process later (a restarted runner) applies the limits in force.
    this.record = { ...this.record, limits: this.limits };
    try {
      writeRecord(this.plan.spec.logDir, this.record);
    } catch {
      // The log folder was removed under us; the limits still apply here.
    }
  }

  /** Stops the process (graceful, then forced) and resolves with how it ended. */
  stop(graceMs = this.graceMs): Promise<ProcessExit> {
    if (this.running && !this.stopped) {
      this.stopped = true;
      this.output.log.meta('stop requested: SIGTERM to the process group', { graceMs });
      this.terminate(graceMs);
    }
    return this.exited;
  }

  status(): ProcessStatus {
    return {
      id: this.id,
      pid: this.pid,
      state: this.running ? 'running' : 'exited',
      startedAt: this.record.startedAt,
      lastOutputAt: this.output.lastOutputAt === null ? null : new Date(this.output.lastOutputAt).toISOString(),
      stdoutBytes: this.output.bytes.stdout,
      stderrBytes: this.output.bytes.stderr,
      logFile: this.plan.logFile,
      labels: this.record.labels,
      ...(this.result ? { exit: this.result } : {}),
    };
  }

  private async spawn(): Promise<void> {
    const { spec, programPath, env } = this.plan;
    const stdinKind = spec.stdin?.kind ?? 'ignore';
    const stdin = stdinKind === 'ignore' ? 'ignore' : 'pipe';
    // Under the watchdog (watchdog.ts), which leads the group: a child that dies with this process
    // (a fourth pipe closes when this process dies, however it dies), and a run whose wall clock
    // must hold without this process (a backstop a grace after this process's own limit).
    const dies = spec.dieWithSupervisor === true;
    const wallClockMs = spec.limits?.wallClockMs;
    const backstop = spec.wallClockBackstop === true && wallClockMs !== undefined;
    const watched = (dies || backstop) && watchdogSupported;
    const launch = watched
      ? watchedLaunch(programPath, spec.args, env, {
          graceMs: this.graceMs,
          dieWithParent: dies,
          deadlineMs: backstop ? this.startedAtMs + wallClockMs + this.graceMs : undefined,
        })
      : { program: programPath, args: [...spec.args], env };
    const child = spawn(launch.program, launch.args, {
      cwd: spec.cwd,
      env: launch.env,
      stdio: watched && dies ? [stdin, 'pipe', 'pipe', 'pipe'] : [stdin, 'pipe', 'pipe'],
      detached: true,
      shell: false,
      windowsHide: true,
    });
    this.child = child;
    if (child.pid === undefined) {
      const error = await new Promise<Error>((resolve) => child.once('error', resolve));
      this.output.end({
        message: `could not start: ${error.message}`,
        data: { error: (error as NodeJS.ErrnoException).code ?? error.message },
      });
      throw new ProcessError('spawnFailed', `Could not start ${spec.program}: ${error.message}`, {
        program: spec.program,
      });
    }
    const probe = probeProcessSync(child.pid) ?? (await probeProcess(child.pid));
    this.record = {
      id: spec.id,
      pid: child.pid,
      pgid: child.pid,
      startToken: startTokensSupported && probe ? probe.startToken : null,
      startedAt: new Date(this.startedAtMs).toISOString(),
      program: programPath,
      args: spec.args.map((a) => this.plan.redactor.redact(a)),
      cwd: spec.cwd,
      logFile: this.plan.logFile,
      limits: this.limits,
      labels: Object.fromEntries(Object.entries(spec.labels ?? {}).map(([k, v]) => [k, this.plan.redactor.redact(v)])),
    };
    writeRecord(spec.logDir, this.record);
    this.output.log.meta(`started ${spec.program} (pid ${child.pid})`, {
      pid: child.pid,
      program: programPath,
      args: this.record.args,
      cwd: spec.cwd,
    });
    this.wire(child);
  }

  private wire(child: ChildProcess): void {
    const { spec } = this.plan;
    child.stdout?.on('data', (chunk: Buffer) => this.output.data('stdout', chunk));
    child.stderr?.on('data', (chunk: Buffer) => this.output.data('stderr', chunk));
    // A child that exits before reading its input closes the pipe under us: its exit says why.
    child.stdin?.on('error', () => undefined);
    if (spec.stdin?.kind === 'text') child.stdin?.end(spec.stdin.text);
    else if (spec.stdin?.kind === 'pipe' && spec.stdin.initial) child.stdin?.write(spec.stdin.initial);
    child.on('exit', (code, signal) => this.leaderExited(code, signal));
    child.on('close', () => this.finish());
    this.armWallClock();
    this.armIdle();
  }

  /** The wall clock counts from spawn, whatever the limit in force. */
  private armWallClock(): void {
    clearTimeout(this.timers.wall);
    const wallClockMs = this.limits.wallClockMs;
    if (wallClockMs === undefined || !this.running || this.leaderExit) return;
    this.timers.wall = setTimeout(
      () => this.hitLimit('wallClock'),
      Math.max(0, this.startedAtMs + wallClockMs - Date.now()),
    );
  }

  private armIdle(): void {
    clearTimeout(this.timers.idle);
    const idleMs = this.limits.idleMs;
    if (idleMs === undefined || !this.running || this.leaderExit) return;
    const since = this.output.lastOutputAt ?? this.startedAtMs;
    this.timers.idle = setTimeout(() => this.hitLimit('idle'), Math.max(0, since + idleMs - Date.now()));
  }

  private hitLimit(kind: LimitKind): void {
    if (this.limitHit || this.stopped || this.leaderExit || !this.running) return;
    this.limitHit = kind;
    const limits = this.limits;
    const what = {
      wallClock: `wall-clock limit of ${limits.wallClockMs} ms`,
      idle: `no output for ${limits.idleMs} ms`,
      outputBytes: `output limit of ${limits.maxOutputBytes} bytes`,
    }[kind];
    this.output.log.meta(`${what} reached: SIGTERM to the process group`, { limit: kind, graceMs: this.graceMs });
    this.terminate(this.graceMs);
  }

  /** SIGTERM to the whole group now, SIGKILL to what is left of it after `graceMs`. */
  private terminate(graceMs: number): void {
    if (this.terminating) return;
    this.terminating = true;
    this.child.stdin?.destroy();
    signalGroup(this.pid, 'SIGTERM');
    this.timers.kill = setTimeout(() => {
      if (groupAlive(this.pid)) signalGroup(this.pid, 'SIGKILL');
    }, graceMs);
  }

  private leaderExited(code: number | null, signal: NodeJS.Signals | null): void {
    this.leaderExit = { code, signal };
    clearTimeout(this.timers.wall);
    clearTimeout(this.timers.idle);
    // The run is over: what it left behind in its group (background jobs, servers) goes too.
    if (groupAlive(this.pid)) this.terminate(this.graceMs);
    // Something that left the group may still hold our pipes: do not wait for it forever.
    this.timers.drain = setTimeout(() => {
      for (const stream of this.child.stdio.slice(1)) stream?.destroy();
      this.finish();
    }, this.graceMs + 1000);
  }

  private finish(): void {
    if (this.result || !this.leaderExit) return;
    clearTimeout(this.timers.drain);
    clearTimeout(this.timers.wall);
    clearTimeout(this.timers.idle);
    if (this.timers.kill && !groupAlive(this.pid)) clearTimeout(this.timers.kill);
    this.timers.kill?.unref();
    const endedAtMs = Date.now();
    const { code, signal } = this.leaderExit;
    const exit: ProcessExit = {
      id: this.id,
      pid: this.pid,
      exitCode: code,
      signal,
      startedAt: this.record.startedAt,
      endedAt: new Date(endedAtMs).toISOString(),
      durationMs: endedAtMs - this.startedAtMs,
      stdoutBytes: this.output.bytes.stdout,
      stderrBytes: this.output.bytes.stderr,
      limit: this.limitHit,
      stopped: this.stopped,
      tail: [],
      logFile: this.plan.logFile,
    };
    const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
    this.output.end({
      message: `${how} after ${exit.durationMs} ms`,
      data: { exitCode: code, signal, durationMs: exit.durationMs, limit: this.limitHit, stopped: this.stopped },
    });
    exit.tail = this.output.tail();
    this.result = exit;
    this.record = { ...this.record, exit };
    try {
      writeRecord(this.plan.spec.logDir, this.record);
    } catch {
      // The log folder was removed under us; the exit still reaches the caller.
    }
    this.resolveExited(exit);
    this.onExit(exit, this.status());
  }
}
