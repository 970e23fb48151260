/**
 * The runner: polls the ledger as the agent-PM contract describes (health, the active projects
 * with their agents, `should_start` for each pair) and, for each (agent, project) that should
 * run, launches the agent's client in the task's worktree, wired to this ledger's MCP server.
 *
 * - One instance per (agent, project), never two: the pairs it started are kept here, and a
 *   restarted runner first adopts the runs a previous runner left open (`recover`), so a run
 *   still going is not launched twice.
 * - The passkey never travels: the runner issues a single-use launch ticket in an owner-only file
 *   of the run that the instance's MCP server reads and deletes as it starts (the client's
 *   configuration names the file), so no prompt, transcript, argument, environment or log line
 *   holds a secret.
 * - A failing pair is cooled down (cooldown.ts) instead of relaunched in a loop.
 * - Every run ends in an execution log: exit code or signal, the limit that ended it, duration,
 *   and the tokens and cost the client printed.
 *
 * Processes are started through ports (the supervisor and a client launcher from src/processes),
 * so this file decides and records, and never spawns anything itself.
 */
import type { Disposable } from '../../emitter';
import { Emitter } from '../../emitter';
import type { LaunchPlan, McpServerLaunch } from '../launch/clientLaunch';
import type { RunUsage } from '../launch/runUsage';
import type { ProcessExit, ProcessRecord, ProcessSupervisorPort, RunningProcess } from '../../ports/processes';
import type { CooldownPolicy } from './cooldown';
import { Cooldowns } from './cooldown';
import type { IdleReason, LaunchHold, LaunchTarget, RunOutcome, RunStart, RunnerLedger } from './runnerPort';
import type { ClientLauncher } from './runnerLaunch';
import { SetupFailed, startInstance } from './runnerLaunch';
import { endReason, failureOf, lostExit, wallClockExit } from './runEnds';

// Still importable from here, where it lived before runnerLaunch.ts took the launch out of this file.
export { launchTicketVariable } from './runnerLaunch';

export interface RunnerOptions {
  ledger: RunnerLedger;
  supervisor: ProcessSupervisorPort;
  launcher: ClientLauncher;
  /** This ledger's MCP server (`agent-ledger mcp serve …` with absolute paths): every instance is wired to it. */
  ledgerServer: McpServerLaunch;
  /** Where run logs, their records and per-run configuration go. */
  logDir: string;
  /** The clients' base environment (PATH, HOME, their own API keys). */
  env: Readonly<Record<string, string>>;
  /** Instances running at once, over every pair. Default 4. */
  maxParallel?: number;
  cooldown?: CooldownPolicy;
  now?: () => number;
  /**
   * Work of the ledger's own each poll, before the pairs are read (the plan runs take their next
   * step, so a task a plan queues now launches in this poll); returns what went wrong, said as errors.
   */
  beforePoll?: () => Promise<string[]>;
}

export interface Instance extends RunStart {
  /** True for a run started by a previous runner and found still running. */
  adopted: boolean;
}

/** What one poll did, pair by pair. */
export interface PollReport {
  healthy: boolean;
  launched: Array<{ agentId: string; projectId: string; executionId: string; client: string; cwd: string }>;
  /**
   * Pairs that should start but did not, and why: running, coolingDown, maxParallel, launchFailed,
   * dependencies (its task waits for tasks not done), conflict (its write scope overlaps a running
   * task's) or clientMissing (its client is not installed, or has no key or login).
   */
  held: Array<{ agentId: string; projectId: string; reason: HeldReason; detail?: string; blockedBy?: string[] }>;
  /** Pairs with nothing to start: no task queued, or an instance of the pair runs elsewhere. */
  idle: Array<{ agentId: string; projectId: string; reason: 'noTask' | 'running'; detail: string }>;
  running: number;
}

export type HeldReason = 'running' | 'coolingDown' | 'maxParallel' | 'launchFailed' | LaunchHold['reason'];

/** Why the runner says a pair does not start now (each said once per change). */
export type PairState = HeldReason | 'noTask';

export type RunnerEvent =
  | { kind: 'launched'; instance: Instance; cwd: string }
  /**
   * A run ended: how the process ended, what the client reported (tokens, cost), what the ledger
   * recorded (the agent's report, or the process's end when it never reported), and for a run that
   * failed, why in one line (its last error line included).
   */
  | {
      kind: 'ended';
      instance: Instance;
      exit: ProcessExit;
      usage: RunUsage | null;
      outcome: RunOutcome | null;
      failure: string | null;
    }
  /** The agent could not be started (its worktree's setup failed: `logFile` holds the setup's output). */
  | { kind: 'launchFailed'; agentId: string; projectId: string; message: string; until: string; logFile?: string }
  | { kind: 'adopted'; instance: Instance }
  /** A pair that does not start now, and why (said once per change). */
  | {
      kind: 'held';
      agentId: string;
      projectId: string;
      taskId: string | null;
      reason: PairState;
      detail: string;
      blockedBy: string[];
      /** Cooling down: no launch before this time (ISO). */
      until?: string;
      /** Running elsewhere: the runner (machine and log folder) and run holding the pair. */
      heldBy?: { runnerId: string | null; executionId: string | null };
    }
  /** No active project has an agent: there is nothing the runner could start (said once). */
  | { kind: 'idle'; detail: string }
  | { kind: 'error'; message: string };

export function pairKey(agentId: string, projectId: string): string {
  return JSON.stringify([agentId, projectId]);
}

export class Runner {
  private readonly instances = new Map<string, Instance>();
  private readonly cooldowns: Cooldowns;
  private readonly now: () => number;
  private readonly _onDidChange = new Emitter<RunnerEvent>();
  readonly onDidChange = this._onDidChange.event;
  private polling: Promise<PollReport> | undefined;
  private readonly pending = new Set<Promise<void>>();
  /** What was last said per pair, so a pair's state is said once per change, not every poll. */
  private readonly said = new Map<string, string>();

  constructor(private readonly options: RunnerOptions) {
    this.cooldowns = new Cooldowns(options.cooldown);
    this.now = options.now ?? Date.now;
  }

  /** Instances running now. */
  list(): Instance[] {
    return [...this.instances.values()];
  }

  /** Pairs waiting after failures. */
  coolingDown(): ReturnType<Cooldowns['waiting']> {
    return this.cooldowns.waiting(this.now());
  }

  /**
   * Looks at the runs the ledger still has open (a previous runner died, or this one restarted):
   * a run whose process still runs is adopted (watched until it ends), one whose process is gone
   * is closed with what its record says. Call once before the first poll.
   */
  async recover(): Promise<void> {
    for (const run of await this.options.ledger.openRuns()) {
      const record = await this.options.supervisor.readRecord(this.options.logDir, run.executionId);
      const liveness = record ? await this.options.supervisor.checkRecord(record) : 'gone';
      if (record && liveness === 'running') {
        const instance: Instance = { ...run, pid: record.pid, adopted: true };
        this.instances.set(pairKey(run.agentId, run.projectId), instance);
        this._onDidChange.fire({ kind: 'adopted', instance });
        this.track(this.watchAdopted(instance, record));
      } else {
        await this.finish({ ...run, adopted: true }, record?.exit ?? lostExit(run, record), null);
      }
    }
  }

  /** One poll: health, the active pairs, `should_start` for each pair not running here. */
  async poll(): Promise<PollReport> {
    // Two overlapping polls would both launch the same pair.
    this.polling ??= this.pollOnce().finally(() => (this.polling = undefined));
    return this.polling;
  }

  /** Polls every `intervalMs` until disposed. */
  start(intervalMs: number): Disposable {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const tick = async (): Promise<void> => {
      try {
        await this.poll();
      } catch (err) {
        this._onDidChange.fire({ kind: 'error', message: messageOf(err) });
      }
      if (!stopped) timer = setTimeout(() => void tick(), intervalMs);
    };
    void tick();
    return {
      dispose: () => {
        stopped = true;
        if (timer) clearTimeout(timer);
      },
    };
  }

  /** Stops one instance (it ends with an execution log saying it was stopped). */
  async stopInstance(agentId: string, projectId: string): Promise<boolean> {
    const instance = this.instances.get(pairKey(agentId, projectId));
    if (!instance) return false;
    if (instance.adopted) {
      const record = await this.options.supervisor.readRecord(this.options.logDir, instance.executionId);
      if (record) await this.options.supervisor.stopRecorded(record);
    } else {
      await this.options.supervisor.stop(instance.executionId);
    }
    return true;
  }

  /** Stops every instance and waits until their execution logs are written. */
  async stopAll(): Promise<void> {
    await Promise.all(this.list().map((i) => this.stopInstance(i.agentId, i.projectId)));
    await this.settled();
  }

  /** Resolves once every run that ended has been recorded. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private async pollOnce(): Promise<PollReport> {
    const report: PollReport = { healthy: false, launched: [], held: [], idle: [], running: this.instances.size };
    const { ledger } = this.options;
    if (!(await ledger.healthCheck())) return report;
    report.healthy = true;
    if (this.options.beforePoll) {
      const problems = await this.options.beforePoll().catch((err: unknown) => [messageOf(err)]);
      for (const message of problems) this._onDidChange.fire({ kind: 'error', message });
    }
    if (this.instances.size > 0) await ledger.heartbeat(this.list().map((i) => i.executionId));
    const all = (await ledger.listActiveProjectsWithAgents()).flatMap((project) =>
      project.agents.map((agentId) => ({ agentId, projectId: project.projectId })),
    );
    if (all.length === 0 && this.instances.size === 0)
      this.say('', 'idle', {
        kind: 'idle',
        detail: 'no active project has an agent: there is nothing to launch yet',
      });
    const pairs = all.filter((pair) => !this.instances.has(pairKey(pair.agentId, pair.projectId)));
    const decisions = ledger.startDecisions
      ? await ledger.startDecisions(pairs)
      : await Promise.all(pairs.map((p) => ledger.shouldStart(p.agentId, p.projectId)));
    for (const [i, pair] of pairs.entries()) {
      const decision = decisions[i];
      if (!decision?.shouldStart) {
        this.sayIdle(pair, decision?.idle, report);
        continue;
      }
      const key = pairKey(pair.agentId, pair.projectId);
      const cooling = this.cooldowns.get(key);
      if (!this.cooldowns.ready(key, this.now())) {
        const until = new Date(cooling?.until ?? this.now()).toISOString();
        report.held.push({ ...pair, reason: 'coolingDown', detail: cooling?.reason ?? undefined });
        this.sayHeld(pair, 'coolingDown', cooling?.reason ?? 'its last run ended too recently', { until });
      } else if (this.instances.size >= (this.options.maxParallel ?? 4)) {
        report.held.push({ ...pair, reason: 'maxParallel' });
        this.sayHeld(
          pair,
          'maxParallel',
          `${this.instances.size} agents run already (at most ${this.options.maxParallel ?? 4} at once)`,
        );
      } else {
        try {
          const instance = await this.launch(pair.agentId, pair.projectId);
          if ('claimedBy' in instance) report.held.push({ ...pair, reason: 'running', detail: instance.claimedBy });
          else if ('hold' in instance)
            report.held.push({
              ...pair,
              reason: instance.hold.reason,
              detail: instance.hold.detail,
              blockedBy: instance.hold.blockedBy,
            });
          else
            report.launched.push({
              ...pair,
              executionId: instance.executionId,
              client: instance.client,
              cwd: instance.cwd,
            });
        } catch (err) {
          const message = messageOf(err);
          const state = this.cooldowns.ended(key, this.now(), { ok: false, reason: message });
          this.said.delete(key);
          const logFile = err instanceof SetupFailed ? { logFile: err.logFile } : {};
          this._onDidChange.fire({
            kind: 'launchFailed',
            ...pair,
            message,
            until: new Date(state.until).toISOString(),
            ...logFile,
          });
          report.held.push({ ...pair, reason: 'launchFailed', detail: message });
        }
      }
    }
    report.running = this.instances.size;
    return report;
  }

  /** A pair the ledger says not to start: nothing queued, or its instance runs elsewhere. */
  private sayIdle(
    pair: { agentId: string; projectId: string },
    idle: IdleReason | undefined,
    report: PollReport,
  ): void {
    if (idle?.reason === 'running') {
      const detail = runningElsewhere(pair, idle);
      report.idle.push({ ...pair, reason: 'running', detail });
      this.sayHeld(pair, 'running', detail, { heldBy: { runnerId: idle.runnerId, executionId: idle.executionId } });
    } else {
      const detail = `no task queued for ${pair.agentId} in ${pair.projectId}`;
      report.idle.push({ ...pair, reason: 'noTask', detail });
      this.sayHeld(pair, 'noTask', detail);
    }
  }

  private sayHeld(
    pair: { agentId: string; projectId: string },
    reason: PairState,
    detail: string,
    extra: {
      taskId?: string | null;
      blockedBy?: string[];
      until?: string;
      heldBy?: { runnerId: string | null; executionId: string | null };
    } = {},
  ): void {
    const { taskId = null, blockedBy = [], ...rest } = extra;
    // What the runner says of a task is kept on it (once per change, as said), so every face can tell why it waits.
    const note = () => {
      if (taskId !== null && reason !== 'noTask') this.noteWaiting(taskId, { reason, detail, blockedBy });
    };
    const signature = JSON.stringify([
      reason,
      taskId,
      blockedBy,
      rest.until ?? null,
      rest.heldBy ?? null,
      reason === 'clientMissing' ? detail : null,
    ]);
    if (
      !this.say(pairKey(pair.agentId, pair.projectId), signature, {
        kind: 'held',
        ...pair,
        taskId,
        reason,
        detail,
        blockedBy,
        ...rest,
      })
    )
      return;
    note();
  }

  /** Fires `event` unless it says what was last said of `key`; true when it did. */
  private say(key: string, signature: string, event: RunnerEvent): boolean {
    if (this.said.get(key) === signature) return false;
    this.said.set(key, signature);
    this._onDidChange.fire(event);
    return true;
  }

  /** Keeps the runner's word on a task in the ledger (a failure to write is said, never thrown into the poll). */
  private noteWaiting(taskId: string, waiting: { reason: string; detail: string; blockedBy: string[] } | null): void {
    if (this.options.ledger.noteWaiting) this.track(this.options.ledger.noteWaiting(taskId, waiting));
  }

  /**
   * Launches a pair; `claimedBy` when another runner holds its instance, the hold when its task may
   * not start now (or its client cannot).
   */
  private async launch(
    agentId: string,
    projectId: string,
  ): Promise<(Instance & { cwd: string }) | { hold: LaunchHold } | { claimedBy: string }> {
    const { ledger, launcher, env } = this.options;
    const target = await ledger.prepareLaunch(agentId, projectId, {
      clientMissing: launcher.missing ? (client) => launcher.missing?.(client, env) : undefined,
    });
    if (target.hold) {
      this.sayHeld({ agentId, projectId }, target.hold.reason, target.hold.detail, {
        taskId: target.taskId,
        blockedBy: target.hold.blockedBy,
      });
      return { hold: target.hold };
    }
    let executionId: string | undefined;
    try {
      executionId = await ledger.claimInstance(target);
    } catch (err) {
      // The worktree's session was prepared for this claim: it must not stay open without a run
      // (if this write fails too, the next claim of the task ends it: runSessions.ts).
      if (target.sessionId !== undefined)
        await ledger.dropPrepared?.(target.sessionId, messageOf(err)).catch(() => undefined);
      throw err;
    }
    if (executionId === undefined) {
      const holder = await ledger.holderOf?.(agentId, projectId).catch(() => undefined);
      const detail = runningElsewhere(
        { agentId, projectId },
        { reason: 'running', executionId: holder?.executionId ?? null, runnerId: holder?.runnerId ?? null },
      );
      this.sayHeld({ agentId, projectId }, 'running', detail, {
        taskId: target.taskId,
        heldBy: { runnerId: holder?.runnerId ?? null, executionId: holder?.executionId ?? null },
      });
      return { claimedBy: detail };
    }
    try {
      return await this.launchClaimed(target, executionId);
    } catch (err) {
      await ledger.releaseInstance(executionId, messageOf(err), err instanceof SetupFailed ? err.logFile : undefined);
      throw err;
    }
  }

  private async launchClaimed(target: LaunchTarget, executionId: string): Promise<Instance & { cwd: string }> {
    const { instance, proc, plan } = await startInstance(this.options, target, executionId);
    const key = pairKey(target.agentId, target.projectId);
    this.instances.set(key, instance);
    this.said.set(key, `launched:${executionId}`);
    this.track(this.recordStart(instance, proc, plan));
    if (target.taskId !== null) this.noteWaiting(target.taskId, null);
    this._onDidChange.fire({ kind: 'launched', instance, cwd: target.cwd });
    return { ...instance, cwd: target.cwd };
  }

  private async recordStart(instance: Instance, proc: RunningProcess, plan: LaunchPlan): Promise<void> {
    try {
      await this.options.ledger.runStarted(instance);
    } catch (err) {
      this._onDidChange.fire({
        kind: 'error',
        message: `could not record the start of ${instance.executionId}: ${messageOf(err)}`,
      });
    }
    const exit = await proc.exited;
    const usage = await this.options.launcher.usage(exit, plan.output).catch(() => null);
    await this.finish(instance, exit, usage);
  }

  /**
   * Watches a run a previous runner started until it ends, and applies its wall clock as that
   * runner would have (the record keeps the limits in force): a hanging agent does not run on
   * because its runner died.
   */
  private async watchAdopted(instance: Instance, record: ProcessRecord): Promise<void> {
    const { supervisor, logDir } = this.options;
    const wallClockMs = record.limits?.wallClockMs;
    const deadline = wallClockMs === undefined ? Infinity : Date.parse(record.startedAt) + wallClockMs;
    let stopped = false;
    for (;;) {
      if (!stopped && Date.now() >= deadline) {
        stopped = true;
        await supervisor.stopRecorded(record, { graceMs: record.limits?.killGraceMs });
      }
      if ((await supervisor.checkRecord(record)) !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, Math.max(50, Math.min(1000, deadline - Date.now()))));
    }
    const latest = await supervisor.readRecord(logDir, instance.executionId);
    await this.finish(instance, latest?.exit ?? (stopped ? wallClockExit : lostExit)(instance, latest ?? record), null);
  }

  private async finish(instance: Instance, exit: ProcessExit, usage: RunUsage | null): Promise<void> {
    const key = pairKey(instance.agentId, instance.projectId);
    let outcome: RunOutcome | null = null;
    try {
      outcome = (await this.options.ledger.runEnded({ ...instance, exit, usage })) ?? null;
    } catch (err) {
      this._onDidChange.fire({
        kind: 'error',
        message: `could not record the end of ${instance.executionId}: ${messageOf(err)}`,
      });
    }
    // A run a person stopped is no failure: its task is held, and the pair's other tasks may go on.
    const ok = outcome?.status === 'stopped' || (exit.exitCode === 0 && exit.limit === null && usage?.isError !== true);
    const cooling = this.cooldowns.ended(key, this.now(), { ok, reason: ok ? undefined : endReason(exit) });
    if (!ok && instance.taskId !== null && outcome?.status !== 'completed')
      this.noteWaiting(instance.taskId, {
        reason: 'coolingDown',
        detail: `its last run ${endReason(exit)}: tried again after ${new Date(cooling.until).toISOString()}`,
        blockedBy: [],
      });
    if (this.instances.get(key)?.executionId === instance.executionId) this.instances.delete(key);
    // The pair's next state (nothing queued, the next task, a cool-down) is said at the next poll.
    this.said.delete(key);
    this._onDidChange.fire({ kind: 'ended', instance, exit, usage, outcome, failure: failureOf(exit, usage, outcome) });
  }

  private track(work: Promise<void>): void {
    const tracked = work
      .catch((err) => this._onDidChange.fire({ kind: 'error', message: messageOf(err) }))
      .finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }
}

/** Who runs the pair when it is not this runner: another runner's run, or an agent that logged in by itself. */
function runningElsewhere(
  pair: { agentId: string; projectId: string },
  idle: Extract<IdleReason, { reason: 'running' }>,
): string {
  if (idle.runnerId !== null)
    return `${pair.agentId} runs in ${pair.projectId} from another runner (${idle.runnerId}${idle.executionId ? `, ${idle.executionId}` : ''})`;
  return `an agent session of ${pair.agentId} is open in ${pair.projectId} (an agent that logged in by itself)`;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
