import { randomUUID } from 'node:crypto';
import { stateError } from '../../errors';
import { notFound, parseId, taskKey } from '../../ids';
import type { AsyncSqlWriter, LedgerEngine } from '../../ports/store';
import { announceCall, awardCall, conflictsOf, effectiveScope, placeBid, refreshCallBounds } from './contractNet';
import type { AwardOutcome, CnpConflict } from './contractNet';
import type {
  CnpAnnounceInput,
  CnpAnnounceResult,
  CnpAwardInput,
  CnpAwardResult,
  CnpBidInput,
  CnpRefreshBoundsInput,
  CnpRefreshBoundsResult,
  CnpWatcherTelemetryResult,
} from './contractNetContracts';
import { agentsFromDefinitions } from './contractNetModel';
import type { CnpAgent, CnpCall, RunningTask } from './contractNetModel';
import { announceResult, awardResult, refreshBoundsResult } from './contractNetResults';
import {
  appendCnpEvent,
  assignTask,
  finishedStatuses,
  loadCall,
  openCalls,
  runningState,
  saveCall,
  taskRow,
  taskWriteScope,
} from './contractNetStore';
import {
  defaultCoalesceWindowMs,
  flushWatcher,
  isFlushDue,
  startWatcher,
  watcherTelemetry,
} from './contractNetWatcher';
import { appendWatcherEvent, loadWatcher, saveWatcher } from './contractNetWatcherStore';
import type { StigmergyService } from '../stigmergy/stigmergyService';

/**
 * Contract-net over the asynchronous store port: calls live in cnp_calls, so an announcement
 * made by one agent's server can be bid on and awarded from another process. Decisions are
 * taken inside the write transaction, against the running tasks and loads of that same state
 * (writes are serialised on both engines), so two awards can never both pass the conflict
 * check on overlapping write scopes. An award assigns the task (assignee) and, until the task
 * starts and ends, counts as running for later awards.
 */

/** An agent definition as the bidders are built from it (AgentRegistry.current().agents). */
export interface BidderDefinition {
  name: string;
  scope: { write: readonly string[]; exclude: readonly string[] };
  config?: Record<string, unknown>;
}

/** The conflict check the runner and worker_command call before starting a task. */
export interface ConflictCheck {
  taskId: string;
  writeScope: string[];
  conflicts: CnpConflict[];
}

/** What `withCall` hands the body of a call's tool (all read in its write transaction). */
interface CallContext {
  tx: AsyncSqlWriter;
  now: number;
  call: CnpCall;
  running: RunningTask[];
  agents: CnpAgent[];
}

export class ContractNetService {
  constructor(
    private readonly engine: LedgerEngine,
    private readonly stigmergy: StigmergyService,
    private readonly definitions: () => readonly BidderDefinition[],
    private readonly clock: () => number = Date.now,
    private readonly coalesceWindowMs = defaultCoalesceWindowMs,
  ) {}

  /** cnp_announce: opens a call for a ledger task and, unless `award` is false, awards it at once. */
  async announce(input: CnpAnnounceInput): Promise<CnpAnnounceResult> {
    return this.engine.write((tx) => this.announceIn(tx, input));
  }

  /**
   * cnp_announce inside the caller's write transaction (with its idempotency key recorded in the
   * same one): a refusal rolls everything back, so a refused call writes nothing.
   */
  async announceIn(tx: AsyncSqlWriter, input: CnpAnnounceInput): Promise<CnpAnnounceResult> {
    const taskId = parseId('task', input.task_id);
    const definitions = this.definitions();
    const now = this.clock();
    const task = await taskRow(tx, taskId);
    if (!task) throw notFound('task', input.task_id);
    if (['done', 'failed', 'cancelled'].includes(task.status)) {
      throw stateError(`${taskKey(taskId)} is ${task.status}: only a task that has not ended can be put out for bids`, {
        error: 'E-CNP-TASK-ENDED',
        taskId,
      });
    }
    const pending = await tx.get<{ call_id: string; status: string }>(
      "SELECT call_id, status FROM cnp_calls WHERE task_id = ? AND status IN ('open', 'awarded') ORDER BY announced_at DESC",
      [taskId],
    );
    if (pending) {
      const hint =
        pending.status === 'open' ? 'bid on it with cnp_bid or award it with cnp_award' : 'it ends when the task does';
      throw stateError(`${taskKey(taskId)} already has an ${pending.status} call ${pending.call_id}: ${hint}`, {
        error: 'E-CNP-ANNOUNCED',
        taskId,
        callId: pending.call_id,
        status: pending.status,
      });
    }
    await this.flushDue(tx, definitions, now);
    const { running, load } = await runningState(tx);
    const agents = agentsFromDefinitions(definitions, load);
    const writeScope = input.writeScope ?? taskWriteScope(task);
    const bounds = await this.stigmergy.boundsIn(tx, writeScope, taskId, now);
    let call = announceCall(
      {
        call_id: `cnp-${randomUUID()}`,
        task_id: taskKey(taskId),
        payload: input.payload,
        tags: input.tags,
        metadata: input.metadata,
        deadline_ms: input.deadline_ms ?? null,
        auto_bid: input.auto_bid,
        heuristics: input.heuristics,
        manual_bids: input.manual_bids,
        correlation: {
          run_id: input.run_id,
          op_id: input.op_id,
          job_id: input.job_id,
          graph_id: input.graph_id,
          node_id: input.node_id,
          child_id: input.child_id,
        },
        pheromone_bounds: bounds,
        writeScope,
      },
      agents,
      now,
    );
    const subject = { callId: call.call_id, taskId, correlation: call.correlation };
    await appendCnpEvent(tx, 'cnp_call_announced', now, subject, {
      task_id: call.task_id,
      bids: call.bids.length,
      auto_bid_enabled: call.auto_bid_enabled,
      writeScope,
    });
    if (!input.award) {
      await saveCall(tx, call, taskId, writeScope, now);
      return announceResult({ call, deferred: true }, { idempotent: false, key: input.idempotency_key ?? null });
    }
    const outcome = awardCall(call, agents, running, now, { allowOverlap: input.allowOverlap });
    call = outcome.call;
    await this.recordOutcome(tx, outcome, agents, taskId, task.workflow_id, input.allowOverlap, now);
    return announceResult(outcome, { idempotent: false, key: input.idempotency_key ?? null });
  }

  /** cnp_bid: an agent bids (or rebids) on an open call. */
  async bid(input: CnpBidInput): Promise<CnpCall> {
    return this.withCall(input.call_id, async ({ tx, now, call, agents }) => {
      const next = placeBid(
        call,
        { agent_id: input.agent_id, cost: input.cost, metadata: input.metadata },
        agents,
        now,
      );
      const taskId = parseId('task', next.task_id);
      await saveCall(tx, next, taskId, next.writeScope, now);
      await appendCnpEvent(
        tx,
        'cnp_bid_recorded',
        now,
        { callId: next.call_id, taskId, correlation: next.correlation },
        { agent_id: input.agent_id, cost: input.cost },
      );
      return next;
    });
  }

  /** cnp_award: the best eligible bid (or the named agent's) wins; the task is assigned. */
  async award(input: CnpAwardInput): Promise<CnpAwardResult> {
    return this.withCall(input.call_id, async ({ tx, now, call, agents, running }) => {
      const taskId = parseId('task', call.task_id);
      const task = await taskRow(tx, taskId);
      if (call.status === 'open' && (!task || ['done', 'failed', 'cancelled'].includes(task.status))) {
        throw stateError(`${call.task_id} has ended: call ${call.call_id} cannot be awarded`, {
          error: 'E-CNP-TASK-ENDED',
          callId: call.call_id,
        });
      }
      const outcome = awardCall(call, agents, running, now, {
        agentId: input.agent_id,
        allowOverlap: input.allowOverlap,
      });
      const result = awardResult(outcome); // throws E-CNP-SCOPE-CONFLICT / E-CNP-NO-BIDS before anything is written
      if (call.status === 'open')
        await this.recordOutcome(tx, outcome, agents, taskId, task?.workflow_id ?? null, input.allowOverlap, now);
      return result;
    });
  }

  /** cnp_refresh_bounds: new bounds (default: the pressure on the call's areas now) and reissued automatic bids. */
  async refreshBounds(input: CnpRefreshBoundsInput): Promise<CnpRefreshBoundsResult> {
    return this.withCall(input.call_id, async ({ tx, now, call, agents }) => {
      const taskId = parseId('task', call.task_id);
      const bounds = input.bounds ?? (await this.stigmergy.boundsIn(tx, call.writeScope, taskId, now));
      const result = refreshCallBounds(
        call,
        bounds,
        { refresh_auto_bids: input.refresh_auto_bids, include_new_agents: input.include_new_agents },
        agents,
        now,
      );
      await saveCall(tx, result.call, taskId, result.call.writeScope, now);
      await appendCnpEvent(
        tx,
        'cnp_call_bounds_updated',
        now,
        { callId: call.call_id, taskId, correlation: call.correlation },
        { refreshed_agents: result.refreshedAgents, pheromone_bounds: bounds },
      );
      return refreshBoundsResult(result);
    });
  }

  /** cnp_watcher_telemetry: the watcher's counters (a due flush happens first). */
  async telemetry(): Promise<CnpWatcherTelemetryResult> {
    const definitions = this.definitions();
    const state = await this.engine.write(async (tx) => {
      await this.flushDue(tx, definitions, this.clock());
      return loadWatcher(tx);
    });
    return watcherTelemetry(state);
  }

  /**
   * The conflict check of conflict-aware scheduling: running tasks (in progress, or awarded and
   * not started) whose write scope may overlap what `taskRef` will write (`writeScope`, default:
   * the task's recorded scope or areas). The runner and worker_command ask it before starting a
   * task; an empty list means the task can start without stepping on another.
   */
  async checkConflicts(taskRef: string | number, writeScope?: readonly string[]): Promise<ConflictCheck> {
    const taskId = parseId('task', taskRef);
    return this.engine.read(async (db) => {
      const task = await taskRow(db, taskId);
      if (!task) throw notFound('task', taskRef);
      const scope = writeScope ? [...writeScope] : taskWriteScope(task);
      const { running } = await runningState(db);
      const probe: CnpAgent = { id: '', write: scope, exclude: [], tags: [], baseCost: 1, load: 0 };
      const call = { task_id: taskKey(taskId), writeScope: scope } as CnpCall;
      return { taskId: taskKey(taskId), writeScope: scope, conflicts: conflictsOf(call, probe, running) };
    });
  }

  /** The task lifecycle's hook: a task ended, its awarded calls are completed (open ones stay for the record). */
  async taskEnded(taskId: number): Promise<void> {
    const has = await this.engine.read((db) =>
      db.get<{ n: number }>("SELECT COUNT(*) AS n FROM cnp_calls WHERE task_id = ? AND status = 'awarded'", [taskId]),
    );
    if (!has || Number(has.n) === 0) return;
    await this.engine.write(async (tx) => {
      const now = this.clock();
      const rows = await tx.all<{ call: string; scope: string }>(
        "SELECT call, scope FROM cnp_calls WHERE task_id = ? AND status = 'awarded'",
        [taskId],
      );
      for (const row of rows) {
        const call = { ...(JSON.parse(row.call) as CnpCall), status: 'completed' as const };
        await saveCall(tx, call, taskId, JSON.parse(row.scope) as string[], now);
        await appendCnpEvent(
          tx,
          'cnp_call_completed',
          now,
          { callId: call.call_id, taskId, correlation: call.correlation },
          { agent_id: call.awarded_agent_id },
        );
      }
    });
  }

  /**
   * Open calls whose task has ended can never be awarded (E-CNP-TASK-ENDED): they are deleted,
   * with a `cnp_call_withdrawn` event each, so they stop counting as open for the watcher. The
   * server runs it on the events retention cadence; returns how many went (at most `limit`).
   */
  async purgeEndedCalls(limit = 500): Promise<number> {
    const stale = `SELECT c.call_id, c.task_id, c.call FROM cnp_calls c JOIN tasks t ON t.id = c.task_id WHERE c.status = 'open' AND t.status IN ${finishedStatuses}`;
    const any = await this.engine.read((db) => db.get<{ call_id: string }>(`${stale} LIMIT 1`));
    if (!any) return 0;
    return this.engine.write(async (tx) => {
      const now = this.clock();
      const rows = await tx.all<{ call_id: string; task_id: number; call: string }>(
        `${stale} ORDER BY c.announced_at, c.call_id LIMIT ?`,
        [limit],
      );
      for (const row of rows) {
        const call = JSON.parse(row.call) as CnpCall;
        await tx.run('DELETE FROM cnp_calls WHERE call_id = ?', [row.call_id]);
        await appendCnpEvent(
          tx,
          'cnp_call_withdrawn',
          now,
          { callId: row.call_id, taskId: Number(row.task_id), correlation: call.correlation },
          { reason: 'task_ended', bids: call.bids.length },
        );
      }
      return rows.length;
    });
  }

  private async recordOutcome(
    tx: AsyncSqlWriter,
    outcome: AwardOutcome,
    agents: readonly CnpAgent[],
    taskId: number,
    workflowId: number | null,
    allowOverlap: boolean,
    now: number,
  ): Promise<void> {
    const call = outcome.call;
    const subject = { callId: call.call_id, taskId, correlation: call.correlation };
    if (outcome.decision === null) {
      await saveCall(tx, call, taskId, call.writeScope, now);
      await appendCnpEvent(tx, 'cnp_call_award_blocked', now, subject, {
        reason: outcome.reason,
        conflicts: outcome.conflicts.length,
      });
      return;
    }
    const agent = agents.find((a) => a.id === outcome.decision!.agent_id);
    const scope = agent ? effectiveScope(call, agent) : call.writeScope;
    await saveCall(tx, call, taskId, scope, now);
    await assignTask(tx, taskId, workflowId === null ? null : Number(workflowId), outcome.decision.agent_id, now);
    const overridden = outcome.ranked.find((r) => r.bid.agent_id === outcome.decision!.agent_id)?.conflicts ?? [];
    await appendCnpEvent(tx, 'cnp_call_awarded', now, subject, {
      agent_id: outcome.decision.agent_id,
      cost: outcome.decision.cost,
      effective_cost: outcome.decision.effective_cost,
      overlap_overridden: allowOverlap && overridden.length > 0,
    });
  }

  /**
   * The preamble of every tool that acts on one call: in one write, the watcher's due flush,
   * then the call and the running tasks and loads that decisions on it are based on.
   */
  private async withCall<T>(callId: string, fn: (context: CallContext) => Promise<T>): Promise<T> {
    const definitions = this.definitions();
    return this.engine.write(async (tx) => {
      const now = this.clock();
      await this.flushDue(tx, definitions, now);
      const call = await loadCall(tx, callId);
      const { running, load } = await runningState(tx);
      return fn({ tx, now, call, running, agents: agentsFromDefinitions(definitions, load) });
    });
  }

  /** Starts the watcher on the first call, and flushes pending field changes when due. */
  private async flushDue(tx: AsyncSqlWriter, definitions: readonly BidderDefinition[], now: number): Promise<void> {
    const state = await loadWatcher(tx);
    if (state && !isFlushDue(state, now)) return;
    const open = await openCalls(tx);
    const bounds = await this.stigmergy.fieldBoundsIn(tx, now);
    const step = state
      ? flushWatcher(state, bounds, open.length, now)
      : startWatcher(bounds, open.length, now, this.coalesceWindowMs);
    if (step.refresh !== undefined && open.length > 0) {
      const { load } = await runningState(tx);
      const agents = agentsFromDefinitions(definitions, load);
      for (const call of open) {
        if (!call.auto_bid_enabled) continue;
        const refreshed = refreshCallBounds(
          call,
          await this.stigmergy.boundsIn(tx, call.writeScope, parseId('task', call.task_id), now),
          {},
          agents,
          now,
        );
        await saveCall(tx, refreshed.call, parseId('task', call.task_id), call.writeScope, now);
      }
    }
    await saveWatcher(tx, step.state, now);
    if (step.emitted) await appendWatcherEvent(tx, step.state, step.emitted, now);
  }
}
