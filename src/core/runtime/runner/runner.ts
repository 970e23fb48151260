/**
 * The runner: polls the ledger as the agent-PM contract describes (health, the active projects
 * with their agents, `should_start` for each pair) and, for each (agent, project) that should
 * run, launches the agent's client in the task's worktree, wired to this ledger's MCP server.
 *
 * - One instance per (agent, project), never two: the pairs it started are kept here, and a
 *   restarted runner first adopts the runs a previous runner left open (`recover`), so a run
 *   still going is not launched twice.
 * - The passkey never travels: the runner issues a single-use launch ticket that reaches the
 *   instance's MCP server in the environment only (forwarded by name through the client's
 *   configuration), so no prompt, transcript, argument or log line holds a secret.
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
import type { LaunchHold, LaunchTarget, RunStart, RunnerLedger } from './runnerPort';
import type { ClientLauncher } from './runnerLaunch';
import { SetupFailed, startInstance } from './runnerLaunch';
import { endReason, lostExit } from './runEnds';

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
   * dependencies (its task waits for tasks not done) or conflict (its write scope overlaps a running task's).
   */
  held: Array<{ agentId: string; projectId: string; reason: HeldReason; detail?: string; blockedBy?: string[] }>;
  running: number;
}

export type HeldReason = 'running' | 'coolingDown' | 'maxParallel' | 'launchFailed' | LaunchHold['reason'];

export type RunnerEvent =
  | { kind: 'launched'; instance: Instance }
  | { kind: 'ended'; instance: Instance; exit: ProcessExit; usage: RunUsage | null }
  /** The agent could not be started (its worktree's setup failed: `logFile` holds the setup's output). */
  | { kind: 'launchFailed'; agentId: string; projectId: string; message: string; logFile?: string }
  | { kind: 'adopted'; instance: Instance }
  /** A pair that should run is held by its task's dependencies or a scope conflict (said once per change). */
  | {
      kind: 'held';
      agentId: string;
      projectId: string;
      taskId: string | null;
      reason: LaunchHold['reason'];
      detail: string;
      blockedBy: string[];
    }
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
  /** The hold last said per pair, so a log says it once, not every poll. */
  private readonly holds = new Map<string, string>();

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
    const report: PollReport = { healthy: false, launched: [], held: [], running: this.instances.size };
    const { ledger } = this.options;
    if (!(await ledger.healthCheck())) return report;
    report.healthy = true;
    if (this.instances.size > 0) await ledger.heartbeat(this.list().map((i) => i.executionId));
    const pairs = (await ledger.listActiveProjectsWithAgents())
      .flatMap((project) => project.agents.map((agentId) => ({ agentId, projectId: project.projectId })))
      .filter((pair) => !this.instances.has(pairKey(pair.agentId, pair.projectId)));
    const decisions = ledger.startDecisions
      ? await ledger.startDecisions(pairs)
      : await Promise.all(pairs.map((p) => ledger.shouldStart(p.agentId, p.projectId)));
    for (const [i, held] of pairs.entries()) {
      if (!decisions[i]?.shouldStart) continue;
      const key = pairKey(held.agentId, held.projectId);
      if (!this.cooldowns.ready(key, this.now())) {
        report.held.push({ ...held, reason: 'coolingDown', detail: this.cooldowns.get(key)?.reason ?? undefined });
      } else if (this.instances.size >= (this.options.maxParallel ?? 4)) {
        report.held.push({ ...held, reason: 'maxParallel' });
      } else {
        try {
          const instance = await this.launch(held.agentId, held.projectId);
          if (!instance) report.held.push({ ...held, reason: 'running', detail: 'claimed by another runner' });
          else if ('hold' in instance)
            report.held.push({
              ...held,
              reason: instance.hold.reason,
              detail: instance.hold.detail,
              blockedBy: instance.hold.blockedBy,
            });
          else
            report.launched.push({
              ...held,
              executionId: instance.executionId,
              client: instance.client,
              cwd: instance.cwd,
            });
        } catch (err) {
          const message = messageOf(err);
          this.cooldowns.ended(key, this.now(), { ok: false, reason: message });
          const logFile = err instanceof SetupFailed ? { logFile: err.logFile } : {};
          this._onDidChange.fire({ kind: 'launchFailed', ...held, message, ...logFile });
          report.held.push({ ...held, reason: 'launchFailed', detail: message });
        }
      }
    }
    report.running = this.instances.size;
    return report;
  }

  /** Launches a pair; undefined when another runner holds its instance, the hold when its task may not start now. */
  private async launch(
    agentId: string,
    projectId: string,
  ): Promise<(Instance & { cwd: string }) | { hold: LaunchHold } | undefined> {
    const { ledger } = this.options;
    const target = await ledger.prepareLaunch(agentId, projectId);
    const key = pairKey(agentId, projectId);
    if (target.hold) {
      const said = JSON.stringify([target.taskId, target.hold.reason, target.hold.blockedBy]);
      if (this.holds.get(key) !== said) {
        this.holds.set(key, said);
        this._onDidChange.fire({ kind: 'held', agentId, projectId, taskId: target.taskId, ...target.hold });
      }
      return { hold: target.hold };
    }
    this.holds.delete(key);
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
    if (executionId === undefined) return undefined;
    try {
      return await this.launchClaimed(target, executionId);
    } catch (err) {
      await ledger.releaseInstance(executionId, messageOf(err), err instanceof SetupFailed ? err.logFile : undefined);
      throw err;
    }
  }

  private async launchClaimed(target: LaunchTarget, executionId: string): Promise<Instance & { cwd: string }> {
    const { instance, proc, plan } = await startInstance(this.options, target, executionId);
    this.instances.set(pairKey(target.agentId, target.projectId), instance);
    this.track(this.recordStart(instance, proc, plan));
    this._onDidChange.fire({ kind: 'launched', instance });
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

  private async watchAdopted(instance: Instance, record: ProcessRecord): Promise<void> {
    const { supervisor, logDir } = this.options;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if ((await supervisor.checkRecord(record)) !== 'running') break;
    }
    const latest = await supervisor.readRecord(logDir, instance.executionId);
    await this.finish(instance, latest?.exit ?? lostExit(instance, latest ?? record), null);
  }

  private async finish(instance: Instance, exit: ProcessExit, usage: RunUsage | null): Promise<void> {
    const key = pairKey(instance.agentId, instance.projectId);
    try {
      await this.options.ledger.runEnded({ ...instance, exit, usage });
    } catch (err) {
      this._onDidChange.fire({
        kind: 'error',
        message: `could not record the end of ${instance.executionId}: ${messageOf(err)}`,
      });
    }
    const ok = exit.exitCode === 0 && exit.limit === null && usage?.isError !== true;
    this.cooldowns.ended(key, this.now(), { ok, reason: ok ? undefined : endReason(exit) });
    if (this.instances.get(key)?.executionId === instance.executionId) this.instances.delete(key);
    this._onDidChange.fire({ kind: 'ended', instance, exit, usage });
  }

  private track(work: Promise<void>): void {
    const tracked = work
      .catch((err) => this._onDidChange.fire({ kind: 'error', message: messageOf(err) }))
      .finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
