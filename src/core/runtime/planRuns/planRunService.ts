import { performance } from 'node:perf_hooks';
import type { Disposable } from '../../emitter';
import type { AsyncSqlReader, AsyncSqlWriter, LedgerEngine } from '../../ports/store';
import { LedgerError, errorMessage, stateError, validationError } from '../../errors';
import { executionKey, taskKey } from '../../ids';
import { nodeTaskId } from '../../events/correlation';
import { appendEvent } from '../../events/eventLog';
import { runWritingAs, writerIdentity } from '../../caller';
import { thisMachine } from '../../machine';
import { untilSomething } from '../../waitFor';
import type { TaskLifecycle } from '../../tasks/taskLifecycle';
import type { TaskStatus } from '../../tasks/taskModel';
import { readLatest } from '../../coordination/plans/graphStore';
import { normaliseGraph } from '../../coordination/plans/planGraph';
import type { GraphInput } from '../../coordination/plans/planGraph';
import type { AgentDirectory } from '../pm/projectRows';
import type { TaskQueue } from '../pm/taskQueue';
import type { RunClient } from '../pm/queueContracts';
import type { BtNode, CompiledTree, NamedNode } from './behaviourTree';
import { leavesOf, nameAndCheck, walk } from './behaviourTree';
import { compileGraph } from './btCompile';
import { launchProfileOf } from '../runner/launchProfile';
import type { NodeStates, TaskView, TickAction, TickOutcome, World } from './btTick';
import { haltAll, haltNode, holdQueued, isSettled, tick } from './btTick';
import { btRunEvent, schedulerEvent } from './planRunEvents';
import type { PlanRun, RunMode } from './planRunRows';
import {
  activeRunIds,
  activeRuns,
  insertRun,
  isActive,
  latestRunOfGraph,
  opRow,
  parsePlanRunId,
  planRunKey,
  readRun,
  recentRuns,
  recordOp,
  saveRun,
  taskViews,
} from './planRunRows';
import type { PlanRunOutput } from './planRunContracts';
import { planDryRun } from './planDryRun';
import { snapshot } from './planRunStatus';
import type { PlanDryRunInput, PlanDryRunOutput } from './planRunContracts';

/** Calls one of the ledger's own tools (an MCP server or the CLI attach theirs). */
export type ToolCaller = (tool: string, input: Record<string, unknown>) => Promise<unknown>;

/** Stops the agent of a running execution (AgentInstanceService.stop). */
export interface ExecutionStopper {
  stop(executionRef: string, options?: { graceMs?: number }): Promise<unknown>;
}

export interface PlanRunDeps {
  engine: LedgerEngine;
  queue: TaskQueue;
  agents: AgentDirectory;
  instances: ExecutionStopper;
  lifecycle?: TaskLifecycle;
  now?: () => number;
}

/** Where a run's tree comes from. */
export interface PlanSource {
  graph_id?: string;
  graph?: GraphInput;
  tree?: CompiledTree;
}

export interface StartRun extends PlanSource {
  agents?: Record<string, string>;
  agent?: string;
  client?: RunClient;
  model?: string;
  variables?: Record<string, string | number | boolean | null>;
  timeout_ms?: number;
  tick_ms?: number;
}

/** What a write of a run leaves for after its commit: agents to stop, tools to call. */
interface AfterCommit {
  stops: Array<{ taskId: number; previous: TaskStatus }>;
  calls: Array<{ nodeId: string; tool: string; input: Record<string, unknown> }>;
}

const GRACE_MS = 2_000;

/**
 * Plan runs: a behaviour tree over a plan, its state in the ledger (plan_runs), ticked by whichever
 * process comes next — the call that started it, an MCP server when one of the run's tasks ends (the
 * task lifecycle), every runner at each poll, and for a reactive run its scheduler every tick_ms
 * while the server that started it lives. Each tick is one write: it reads the tasks, moves the
 * nodes, queues the task leaves that may start (TaskQueue, in the same write: a task is queued
 * once, whoever ticks) and records it all, so a `kill -9` of any process loses nothing and repeats
 * nothing. Agents are stopped and tools called after the write commits.
 */
export class PlanRunService {
  private readonly now: () => number;
  private toolCaller: ToolCaller | undefined;
  private readonly loops = new Map<number, NodeJS.Timeout>();

  constructor(private readonly d: PlanRunDeps) {
    this.now = d.now ?? Date.now;
  }

  /** Lets tool leaves run in this process (an MCP server, the CLI). */
  attachToolCaller(caller: ToolCaller): Disposable {
    this.toolCaller = caller;
    return { dispose: () => (this.toolCaller === caller ? (this.toolCaller = undefined) : undefined) };
  }

  /** `plan_compile_bt`: a plan graph (stored or inline) as a tree, every node named. */
  async compile(source: PlanSource): Promise<CompiledTree & { root: NamedNode }> {
    return this.d.engine.read((db) => this.treeOf(db, source)).then((t) => t.tree);
  }

  private async treeOf(
    db: AsyncSqlReader,
    source: PlanSource,
  ): Promise<{ tree: CompiledTree & { root: NamedNode }; graphId: string | null }> {
    if (source.tree) return { tree: nameAndCheck(source.tree), graphId: null };
    if (source.graph) {
      const graph = normaliseGraph(source.graph, { graph_id: source.graph.graph_id ?? 'inline' });
      return { tree: compileGraph(graph), graphId: null };
    }
    const graphId = source.graph_id!;
    const stored = await readLatest(db, graphId);
    if (!stored)
      throw new LedgerError('NotFound', `plan graph ${graphId} does not exist: a workflow's plan is wf-<id>`, {
        graph_id: graphId,
      });
    return { tree: compileGraph(stored.graph), graphId };
  }

  /**
   * Starts a run in the caller's write (plan_run_bt, plan_run_reactive: under their idempotency
   * key): checks every task leaf has its task and an agent, refuses a second active run of one
   * graph, records the run and takes its first tick. Nothing is written on a refusal.
   */
  async startIn(
    tx: AsyncSqlWriter,
    input: StartRun,
    mode: RunMode,
    options: { opId: string; knownTool?: (name: string) => boolean },
  ): Promise<{ runId: number; output: PlanRunOutput; after: AfterCommit }> {
    const { tree, graphId } = await this.treeOf(tx, input);
    if (graphId !== null) {
      const other = await tx.get<{ id: number }>(
        "SELECT id FROM plan_runs WHERE graph_id = ? AND status IN ('running', 'paused') ORDER BY id LIMIT 1",
        [graphId],
      );
      if (other)
        throw stateError(
          `${graphId} is already running as ${planRunKey(Number(other.id))}: pause, resume or cancel that run`,
          { reason: 'planRunActive', run_id: planRunKey(Number(other.id)), graph_id: graphId },
        );
    }
    const agents = input.agents ?? {};
    const runOn = { client: input.client, model: input.model };
    const leaves = leavesOf(tree.root);
    const taskIds = leaves.flatMap((l) => (l.type === 'task' ? [nodeTaskId(l.node_id)!] : []));
    const tasks = await taskViews(tx, taskIds);
    for (const leaf of leaves) {
      if (leaf.type === 'tool' && options.knownTool && !options.knownTool(leaf.tool))
        throw validationError(`tool leaf ${leaf.id} calls ${leaf.tool}, which this server does not offer`, {
          node_id: leaf.id,
          tool: leaf.tool,
        });
      if (leaf.type !== 'task') continue;
      const task = tasks.get(nodeTaskId(leaf.node_id)!);
      if (!task)
        throw new LedgerError('TaskNotFound', `${leaf.node_id} (leaf ${leaf.id}) does not exist`, {
          node_id: leaf.id,
          task_id: leaf.node_id,
        });
      const agent = this.agentFor(leaf, agents, input.agent ?? null, task);
      if (agent === null && task.status !== 'done')
        throw validationError(
          `no agent for ${leaf.node_id}: name one (agents: { "${leaf.node_id}": "coder" }, or agent: "coder")`,
          { node_id: leaf.id, task_id: leaf.node_id },
        );
      // The agent's launch block read now with the run's client and model: refused here, not at launch.
      if (agent !== null) launchProfileOf(this.d.agents.lookup(agent), runOn);
    }
    const now = this.now();
    const ts = new Date(now).toISOString();
    const id = await insertRun(tx, {
      opId: options.opId,
      graphId,
      treeId: tree.id,
      mode,
      root: tree.root,
      variables: input.variables ?? {},
      agents,
      defaultAgent: input.agent ?? null,
      client: input.client ?? null,
      model: input.model ?? null,
      tickMs: mode === 'reactive' ? (input.tick_ms ?? 1_000) : null,
      deadlineMs: input.timeout_ms === undefined ? null : now + input.timeout_ms,
      createdBy: actor(),
      ts,
    });
    const run = await readRun(tx, id);
    await recordOp(tx, { opId: run.opId, runId: id, nodeId: null, taskId: null, ts });
    await btRunEvent(tx, run, now, 'start', { leaves: leaves.length });
    const after = await this.tickIn(tx, run, { canCallTools: false, force: true });
    return { runId: id, output: await snapshot(tx, run), after };
  }

  /**
   * What follows a start once committed: agents to stop, tool leaves to call (this process can, if
   * it attached a caller), a reactive run's scheduler in this process, and the wait the caller asked
   * for. Answers the run as it stands then.
   */
  async afterStart(
    runId: number,
    after: AfterCommit,
    options: { mode: RunMode; tickMs?: number; waitMs: number },
  ): Promise<PlanRunOutput> {
    await this.afterCommit(runId, after);
    if (this.toolCaller) await this.advance(runId);
    if (options.mode === 'reactive') this.startLoop(runId, options.tickMs ?? 1_000);
    return this.waitForEnd(planRunKey(runId), options.waitMs);
  }

  private agentFor(
    leaf: Extract<BtNode, { type: 'task' }>,
    agents: Record<string, string>,
    fallback: string | null,
    task: TaskView | undefined,
  ): string | null {
    if (leaf.agent) return leaf.agent;
    if (agents[leaf.node_id]) return agents[leaf.node_id];
    if (task?.assignee && task.assigneeIsAgent) return task.assignee;
    return fallback;
  }

  /** Does what a committed write left to do: stops agents, calls tools (then ticks again). */
  async afterCommit(runId: number, after: AfterCommit): Promise<string[]> {
    const notStopped: string[] = [];
    for (const stop of after.stops) {
      await this.d.lifecycle?.changed(stop.taskId, stop.previous, 'cancelled');
      const running = await this.d.engine.read((db) =>
        db.all<{ id: number }>("SELECT id FROM execution_logs WHERE task_id = ? AND status = 'running'", [stop.taskId]),
      );
      for (const e of running) {
        try {
          await this.d.instances.stop(executionKey(Number(e.id)), { graceMs: GRACE_MS });
        } catch (err) {
          notStopped.push(`${executionKey(Number(e.id))} (${taskKey(stop.taskId)}): ${errorMessage(err)}`);
        }
      }
    }
    for (const call of after.calls) await this.callTool(runId, call);
    return notStopped;
  }

  private async callTool(runId: number, call: AfterCommit['calls'][number]): Promise<void> {
    const caller = this.toolCaller;
    let outcome: { ok: boolean; result: unknown };
    if (!caller) outcome = { ok: false, result: 'no tool caller in this process' };
    else {
      try {
        outcome = { ok: true, result: await caller(call.tool, call.input) };
      } catch (err) {
        outcome = { ok: false, result: errorMessage(err) };
      }
    }
    const after = await this.d.engine.write(async (tx) => {
      const run = await readRun(tx, runId);
      const s = run.states[call.nodeId];
      if (!isActive(run.status) || s?.status !== 'running') return null;
      s.status = outcome.ok ? 'success' : 'failure';
      s.reason = outcome.ok ? `${call.tool} answered` : `${call.tool} failed: ${String(outcome.result).slice(0, 300)}`;
      s.result = outcome.ok ? outcome.result : null;
      s.changed_at = this.now();
      await btRunEvent(tx, run, this.now(), 'node', { node_id: call.nodeId, node_status: s.status, reason: s.reason });
      return this.tickIn(tx, run, { canCallTools: this.toolCaller !== undefined, force: true });
    });
    if (after) await this.afterCommit(runId, after);
  }

  /**
   * One tick of a run in a write: reads its tasks, moves its nodes, applies what it decided that
   * belongs in the write (queue, hold back, cancel a task), records the state and the events.
   * `force` writes even when nothing changed (a call that already changed the run).
   */
  private async tickIn(
    tx: AsyncSqlWriter,
    run: PlanRun,
    options: { canCallTools: boolean; force?: boolean; trigger?: Record<string, unknown> },
  ): Promise<AfterCommit> {
    const started = performance.now();
    const now = this.now();
    const ts = new Date(now).toISOString();
    const after: AfterCommit = { stops: [], calls: [] };
    if (!isActive(run.status)) return after;
    const pendingBefore = pendingLeaves(run);
    const world = await this.worldOf(tx, run, options.canCallTools);
    if (options.trigger)
      await schedulerEvent(tx, run, now, {
        msg: 'scheduler_event_enqueued',
        event_type: String(options.trigger.event_type ?? 'taskDone'),
        pending_before: pendingBefore,
        pending_after: pendingBefore,
        duration_ms: null,
        event_payload: options.trigger,
      });
    let outcome: TickOutcome;
    if (run.deadlineMs !== null && now >= run.deadlineMs) {
      outcome = haltAll(run.root, run.states, world, 'the run timed out');
      run.status = 'cancelled';
      run.reason = `timed out (timeout_ms passed at ${new Date(run.deadlineMs).toISOString()})`;
      run.endedAt = ts;
      await btRunEvent(tx, run, now, 'cancel', { reason: run.reason });
    } else {
      outcome = tick(run.root, run.states, world);
    }
    await this.apply(tx, run, outcome.actions, after, ts);
    if (isActive(run.status) && outcome.result !== 'running') {
      run.status = outcome.result === 'success' ? 'succeeded' : 'failed';
      run.reason = outcome.result === 'success' ? null : rootReason(run);
      run.endedAt = ts;
    }
    const something = outcome.changed.length > 0 || outcome.actions.length > 0;
    if (!something && !options.force && !options.trigger) return after;
    run.tickSeq++;
    const leafById = new Map(leavesOf(run.root).map((l) => [l.id, l]));
    for (const c of outcome.changed) {
      const leaf = leafById.get(c.nodeId);
      if (!leaf || c.status === 'waiting' || c.status === 'ready' || c.status === 'idle') continue;
      const taskId = leaf.type === 'task' ? nodeTaskId(leaf.node_id) : null;
      await btRunEvent(tx, run, now, 'node', {
        node_id: c.nodeId,
        node_status: c.status,
        reason: c.reason ?? null,
        task_id: taskId,
      });
    }
    if (something)
      await schedulerEvent(tx, run, now, {
        msg: 'scheduler_tick_result',
        event_type: 'tick',
        pending_before: pendingBefore,
        pending_after: pendingLeaves(run),
        duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
        event_payload: {
          result: outcome.result,
          launched: outcome.actions.filter((a) => a.kind === 'queue').map((a) => a.nodeId),
          changed: outcome.changed.length,
        },
      });
    if (!isActive(run.status) && run.status !== 'cancelled')
      await btRunEvent(tx, run, now, run.status === 'succeeded' ? 'complete' : 'error', { reason: run.reason });
    await saveRun(tx, run, ts);
    return after;
  }

  private async apply(
    tx: AsyncSqlWriter,
    run: PlanRun,
    actions: TickAction[],
    after: AfterCommit,
    ts: string,
  ): Promise<void> {
    for (const a of actions) {
      if (a.kind === 'queue') {
        try {
          await this.d.queue.queueExistingIn(
            tx,
            {
              task_id: a.taskId,
              agent: a.agent,
              ...(run.client ? { client: run.client } : {}),
              ...(run.model ? { model: run.model } : {}),
            },
            ts,
          );
          await recordOp(tx, { opId: a.opId, runId: run.id, nodeId: a.nodeId, taskId: a.taskId, ts });
        } catch (err) {
          if (!(err instanceof LedgerError)) throw err;
          // The leaf fails with the queue's reason; its parents see it at the next tick.
          run.states[a.nodeId] = {
            ...run.states[a.nodeId],
            status: 'failure',
            reason: `could not queue ${taskKey(a.taskId)} for ${a.agent}: ${err.message}`,
            changed_at: Date.parse(ts),
          };
        }
      } else if (a.kind === 'unqueue') {
        const moved = await tx.run(
          `UPDATE tasks SET status = 'open', updated_at = ? WHERE id = ? AND status = 'in_progress'
              AND NOT EXISTS (SELECT 1 FROM execution_logs e WHERE e.task_id = tasks.id AND e.status = 'running')`,
          [ts, a.taskId],
        );
        if (moved.changes > 0) await taskEvent(tx, a.taskId, 'open', `held back: ${planRunKey(run.id)} paused`, ts);
        else run.states[a.nodeId] = { ...run.states[a.nodeId], status: 'running', reason: 'an agent took it first' };
      } else if (a.kind === 'stop') {
        const row = await tx.get<{ status: TaskStatus }>('SELECT status FROM tasks WHERE id = ?', [a.taskId]);
        if (row && (row.status === 'in_progress' || row.status === 'open')) {
          await tx.run("UPDATE tasks SET status = 'cancelled', updated_at = ? WHERE id = ?", [ts, a.taskId]);
          await taskEvent(tx, a.taskId, 'cancelled', `${planRunKey(run.id)}: ${a.reason}`, ts);
          after.stops.push({ taskId: a.taskId, previous: row.status });
        }
      } else {
        after.calls.push({ nodeId: a.nodeId, tool: a.tool, input: a.input });
      }
    }
  }

  private async worldOf(tx: AsyncSqlReader, run: PlanRun, canCallTools: boolean): Promise<World> {
    const ids = leavesOf(run.root).flatMap((l) => (l.type === 'task' ? [nodeTaskId(l.node_id)!] : []));
    const tasks = await taskViews(tx, ids);
    return {
      now: this.now(),
      tasks,
      variables: run.variables,
      mayStart: run.status === 'running',
      canCallTools,
      opId: (nodeId, attempt) => `${run.opId}:${nodeId}:${attempt}`,
      agentOf: (leaf) => this.agentFor(leaf, run.agents, run.defaultAgent, tasks.get(nodeTaskId(leaf.node_id)!)),
    };
  }

  /**
   * Ticks a run now (a task of it ended, a runner polls, its scheduler fires). Reads first and
   * writes only when the tick changes something, so idle ticks cost a read.
   */
  async advance(runId: number, trigger?: Record<string, unknown>): Promise<void> {
    const canCallTools = this.toolCaller !== undefined;
    if (!trigger) {
      const idle = await this.d.engine.read(async (db) => {
        const run = await readRun(db, runId);
        if (!isActive(run.status)) return true;
        if (run.deadlineMs !== null && this.now() >= run.deadlineMs) return false;
        const copy = JSON.parse(JSON.stringify(run.states)) as NodeStates;
        const o = tick(run.root, copy, await this.worldOf(db, run, canCallTools));
        return o.changed.length === 0 && o.actions.length === 0;
      });
      if (idle) return;
    }
    const after = await this.d.engine.write(async (tx) =>
      this.tickIn(tx, await readRun(tx, runId), { canCallTools, trigger }),
    );
    await this.afterCommit(runId, after);
  }

  /** Ticks every active run (a runner's poll). One run's failure does not stop the others. */
  async advanceAll(): Promise<string[]> {
    const errors: string[] = [];
    for (const id of await this.d.engine.read(activeRunIds)) {
      await this.advance(id).catch((err: unknown) => errors.push(`${planRunKey(id)}: ${errorMessage(err)}`));
    }
    return errors;
  }

  /** A task ended (the task lifecycle): the runs with a leaf on it tick now, the event enqueued. */
  async taskEnded(taskId: number): Promise<void> {
    for (const id of await this.d.engine.read(activeRunIds)) {
      const run = await this.d.engine.read((db) => readRun(db, id));
      const leaf = leavesOf(run.root).find((l) => l.type === 'task' && nodeTaskId(l.node_id) === taskId);
      if (!leaf) continue;
      const status = await this.d.engine.read((db) =>
        db.get<{ status: string }>('SELECT status FROM tasks WHERE id = ?', [taskId]),
      );
      await this.advance(id, {
        event_type: 'taskDone',
        node_id: leaf.id,
        task_id: taskKey(taskId),
        success: status?.status === 'done',
        status: status?.status ?? null,
      });
    }
  }

  /** Ticks a reactive run every `tickMs` in this process until it ends (timers do not keep a process alive). */
  startLoop(runId: number, tickMs: number): void {
    if (this.loops.has(runId)) return;
    const step = async (): Promise<void> => {
      let active = false;
      try {
        await this.advance(runId);
        active = isActive((await this.d.engine.read((db) => readRun(db, runId))).status);
      } catch {
        active = true;
      }
      if (!this.loops.has(runId)) return;
      if (!active) {
        this.loops.delete(runId);
        return;
      }
      const timer = setTimeout(() => void step(), tickMs);
      timer.unref();
      this.loops.set(runId, timer);
    };
    const timer = setTimeout(() => void step(), tickMs);
    timer.unref();
    this.loops.set(runId, timer);
  }

  dispose(): void {
    for (const t of this.loops.values()) clearTimeout(t);
    this.loops.clear();
  }

  /** A run as plan_status shows it; runs newest first without an id. */
  async status(ref?: string): Promise<PlanRunOutput[]> {
    return this.d.engine.read(async (db) => {
      const runs = ref === undefined ? await recentRuns(db, 20) : [await readRun(db, parsePlanRunId(ref))];
      return Promise.all(runs.map((r) => snapshot(db, r)));
    });
  }

  /** The newest run of a plan graph (what its Plan graph overlays), or null when it never ran. */
  async latestOfGraph(graphId: string): Promise<PlanRunOutput | null> {
    return this.d.engine.read(async (db) => {
      const run = await latestRunOfGraph(db, graphId);
      return run ? snapshot(db, run) : null;
    });
  }

  /** Runs going on, running or paused (what the Board shows), oldest first. */
  async active(): Promise<PlanRunOutput[]> {
    return this.d.engine.read(async (db) => Promise.all((await activeRuns(db)).map((r) => snapshot(db, r))));
  }

  /**
   * `act` (pause, resume, cancel, a gate's decision) as a person's action from a view — the editor,
   * the web board —, recorded as `person:<name>`: the page's person, never an agent's token.
   */
  asPerson<T>(person: string, act: () => Promise<T>): Promise<T> {
    return runWritingAs(`person:${person}`, act);
  }

  /** Waits up to `waitMs` for a run to end (ticking it meanwhile), then its status. */
  async waitForEnd(ref: string, waitMs: number): Promise<PlanRunOutput> {
    const id = parsePlanRunId(ref);
    if (waitMs > 0)
      await untilSomething(
        this.d.engine,
        this.now,
        waitMs,
        async () => {
          await this.advance(id);
          const run = await this.d.engine.read((db) => readRun(db, id));
          return isActive(run.status) ? null : run;
        },
        { attemptWrites: true },
      );
    return (await this.status(planRunKey(id)))[0];
  }

  /** `plan_pause`: nothing new starts; queued tasks no agent took yet are held back; running agents finish. */
  async pause(ref: string): Promise<PlanRunOutput> {
    const id = parsePlanRunId(ref);
    await this.d.engine.write(async (tx) => {
      const run = await readRun(tx, id);
      if (run.status !== 'running')
        throw stateError(`${planRunKey(id)} is ${run.status}: only a running plan can be paused`, {
          run_id: planRunKey(id),
          status: run.status,
        });
      run.status = 'paused';
      run.reason = `paused by ${actor()}`;
      const world = await this.worldOf(tx, run, false);
      const outcome = holdQueued(run.root, run.states, world);
      const ts = new Date(this.now()).toISOString();
      await this.apply(tx, run, outcome.actions, { stops: [], calls: [] }, ts);
      await btRunEvent(tx, run, this.now(), 'pause', {
        held_back: outcome.actions.map((a) => a.nodeId),
      });
      run.tickSeq++;
      await saveRun(tx, run, ts);
    });
    return (await this.status(planRunKey(id)))[0];
  }

  /** `plan_resume`: a paused run starts what is ready again. */
  async resume(ref: string): Promise<PlanRunOutput> {
    const id = parsePlanRunId(ref);
    const after = await this.d.engine.write(async (tx) => {
      const run = await readRun(tx, id);
      if (run.status !== 'paused')
        throw stateError(`${planRunKey(id)} is ${run.status}: only a paused plan can be resumed`, {
          run_id: planRunKey(id),
          status: run.status,
        });
      run.status = 'running';
      run.reason = null;
      await btRunEvent(tx, run, this.now(), 'resume');
      return this.tickIn(tx, run, { canCallTools: this.toolCaller !== undefined, force: true });
    });
    await this.afterCommit(id, after);
    return (await this.status(planRunKey(id)))[0];
  }

  /**
   * `plan_cancel`: nothing more starts, the run's running agents are stopped, what did not end is
   * marked cancelled — with who cancelled it (`cancelled by person:ann: <reason>`), as a pause says.
   */
  async cancel(ref: string, reason?: string): Promise<PlanRunOutput> {
    const id = parsePlanRunId(ref);
    const why = `cancelled by ${actor()}${reason ? `: ${reason}` : ''}`;
    const after = await this.d.engine.write(async (tx) => {
      const run = await readRun(tx, id);
      if (!isActive(run.status))
        throw stateError(`${planRunKey(id)} is ${run.status} already: there is nothing to cancel`, {
          run_id: planRunKey(id),
          status: run.status,
        });
      const ts = new Date(this.now()).toISOString();
      const outcome = haltAll(run.root, run.states, await this.worldOf(tx, run, false), why);
      const after: AfterCommit = { stops: [], calls: [] };
      await this.apply(tx, run, outcome.actions, after, ts);
      run.status = 'cancelled';
      run.reason = why;
      run.endedAt = ts;
      run.tickSeq++;
      await btRunEvent(tx, run, this.now(), 'cancel', {
        reason: why,
        stopped: outcome.actions.filter((a) => a.kind === 'stop').map((a) => a.nodeId),
      });
      await saveRun(tx, run, ts);
      return after;
    });
    const notStopped = await this.afterCommit(id, after);
    const [out] = await this.status(planRunKey(id));
    return notStopped.length > 0 ? { ...out, not_stopped: notStopped } : out;
  }

  /** `op_cancel`: a run's op cancels the run; a task leaf's launch op stops that leaf (its parents react). */
  async cancelOp(opId: string, reason?: string): Promise<PlanRunOutput> {
    const op = await this.d.engine.read((db) => opRow(db, opId));
    if (!op)
      throw new LedgerError('NotFound', `no plan operation ${opId}: plan_status shows each leaf's op_id`, {
        op_id: opId,
      });
    const runId = Number(op.run_id);
    if (op.node_id === null) return this.cancel(planRunKey(runId), reason ?? `op_cancel ${opId}`);
    const nodeId = op.node_id;
    const who = actor();
    const after = await this.d.engine.write(async (tx) => {
      const run = await readRun(tx, runId);
      const s = run.states[nodeId];
      if (!isActive(run.status) || s?.op_id !== opId || s.status !== 'running')
        throw stateError(`${opId} is not running (its leaf is ${s?.status ?? 'idle'}; the run is ${run.status})`, {
          op_id: opId,
          run_id: planRunKey(runId),
          node_id: nodeId,
        });
      const ts = new Date(this.now()).toISOString();
      const world = await this.worldOf(tx, run, false);
      const halted = haltNode(
        run.root,
        nodeId,
        run.states,
        world,
        `cancelled by ${who}: ${reason ?? `op_cancel ${opId}`}`,
      );
      const after: AfterCommit = { stops: [], calls: [] };
      await this.apply(tx, run, halted.actions, after, ts);
      const more = await this.tickIn(tx, run, { canCallTools: false, force: true });
      after.stops.push(...more.stops);
      return after;
    });
    const notStopped = await this.afterCommit(runId, after);
    const [out] = await this.status(planRunKey(runId));
    return notStopped.length > 0 ? { ...out, not_stopped: notStopped } : out;
  }

  /**
   * A person approves (or refuses) a gate leaf that waits for them. Refused to an agent: a
   * person's decision is never made with an agent's credentials.
   */
  async decideGate(input: {
    run_id: string;
    node_id: string;
    approve: boolean;
    note?: string;
  }): Promise<PlanRunOutput> {
    const who = actor();
    if (who.startsWith('agent:'))
      throw new LedgerError('Unauthorized', `a gate is decided by a person, not by an agent (${who})`, {
        node_id: input.node_id,
      });
    const id = parsePlanRunId(input.run_id);
    const after = await this.d.engine.write(async (tx) => {
      const run = await readRun(tx, id);
      const node = findNode(run.root, input.node_id);
      if (!node || node.type !== 'gate')
        throw validationError(`${input.node_id} is not a gate of ${planRunKey(id)}`, { node_id: input.node_id });
      const s = run.states[input.node_id];
      if (!isActive(run.status) || s?.status !== 'waiting' || !s.reason?.startsWith('waits for a person'))
        throw stateError(
          `gate ${input.node_id} is not waiting for a person (it is ${s?.status ?? 'idle'}${s?.reason ? `: ${s.reason}` : ''}; the run is ${run.status})`,
          { node_id: input.node_id, status: s?.status ?? 'idle' },
        );
      const now = this.now();
      s.status = input.approve ? 'success' : 'failure';
      s.reason = `${input.approve ? 'approved' : 'refused'}${input.note ? `: ${input.note}` : ''}`;
      s.decided_by = who;
      s.decided_at = new Date(now).toISOString();
      s.changed_at = now;
      await btRunEvent(tx, run, now, 'node', { node_id: input.node_id, node_status: s.status, reason: s.reason });
      return this.tickIn(tx, run, { canCallTools: this.toolCaller !== undefined, force: true });
    });
    await this.afterCommit(id, after);
    return (await this.status(planRunKey(id)))[0];
  }

  /** `plan_dry_run`: what would run, in which order, with which agents, and which pairs would collide. */
  async dryRun(input: PlanDryRunInput): Promise<PlanDryRunOutput> {
    return this.d.engine.read(async (db) => {
      const { tree } = await this.treeOf(db, input);
      return planDryRun(db, tree, {
        agentOf: (leaf, task) => this.agentFor(leaf, input.agents ?? {}, input.agent ?? null, task),
        agents: this.d.agents,
        run: { client: input.client, model: input.model },
      });
    });
  }
}

/** Leaves not settled yet. */
function pendingLeaves(run: PlanRun): number {
  return leavesOf(run.root).filter((l) => !isSettled(run.states[l.id]?.status)).length;
}

function rootReason(run: PlanRun): string | null {
  const failed = leavesOf(run.root).find((l) => run.states[l.id]?.status === 'failure');
  return failed
    ? `${failed.id} failed${run.states[failed.id]?.reason ? `: ${run.states[failed.id]!.reason}` : ''}`
    : (run.states[run.root.id]?.reason ?? null);
}

export function findNode(root: BtNode, id: string): BtNode | undefined {
  let found: BtNode | undefined;
  walk(root, (n) => {
    if (n.id === id) found = n;
  });
  return found;
}

async function taskEvent(tx: AsyncSqlWriter, taskId: number, status: string, why: string, ts: string): Promise<void> {
  await appendEvent(tx, {
    ts,
    kind: 'task.updated',
    taskId,
    payload: { fields: ['status'], status, reason: why },
  });
}

/**
 * Who acts on a run: the caller of the tool call, or, outside any call (the CLI, run by the
 * machine's user, like the editor's buttons), that person.
 */
function actor(): string {
  return writerIdentity() ?? `person:${thisMachine().user}`;
}
