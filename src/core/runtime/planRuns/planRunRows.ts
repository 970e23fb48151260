import type { AsyncSqlReader, AsyncSqlWriter } from '../../ports/store';
import { LedgerError, validationError } from '../../errors';
import { fromJson } from '../../json';
import type { NamedNode } from './behaviourTree';
import type { NodeStates, TaskView } from './btTick';
import type { RunClient } from '../pm/queueContracts';

/** A plan run's row (plan_runs, migration v23), decoded. */
export const runStatuses = ['running', 'paused', 'succeeded', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof runStatuses)[number];
export const runModes = ['bt', 'reactive'] as const;
export type RunMode = (typeof runModes)[number];

export interface PlanRun {
  id: number;
  opId: string;
  graphId: string | null;
  treeId: string;
  mode: RunMode;
  status: RunStatus;
  root: NamedNode;
  states: NodeStates;
  variables: Record<string, unknown>;
  agents: Record<string, string>;
  defaultAgent: string | null;
  /** The client (and model) every task leaf is queued with, null: each agent's own. */
  client: RunClient | null;
  model: string | null;
  tickMs: number | null;
  deadlineMs: number | null;
  tickSeq: number;
  reason: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  endedAt: string | null;
}

interface Row {
  id: number;
  op_id: string;
  graph_id: string | null;
  tree_id: string;
  mode: string;
  status: string;
  tree: string;
  state: string;
  variables: string;
  agents: string;
  default_agent: string | null;
  run_client: string | null;
  run_model: string | null;
  tick_ms: number | null;
  deadline_ms: number | null;
  tick_seq: number;
  reason: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  ended_at: string | null;
}

/** The id people and tools name a run by: `plan-7`. */
export function planRunKey(id: number): string {
  return `plan-${id}`;
}

export function parsePlanRunId(ref: string): number {
  const m = /^(?:plan-)?([1-9][0-9]{0,14})$/.exec(ref.trim());
  if (!m)
    throw validationError(
      `${JSON.stringify(ref)} is not a plan run id: use the run_id plan_run_bt answered, like plan-3`,
      { run_id: ref },
    );
  return Number(m[1]);
}

export function isActive(status: RunStatus): boolean {
  return status === 'running' || status === 'paused';
}

function decode(r: Row): PlanRun {
  return {
    id: Number(r.id),
    opId: r.op_id,
    graphId: r.graph_id,
    treeId: r.tree_id,
    mode: r.mode as RunMode,
    status: r.status as RunStatus,
    root: JSON.parse(r.tree) as NamedNode,
    states: fromJson(r.state, {}),
    variables: fromJson(r.variables, {}),
    agents: fromJson(r.agents, {}),
    defaultAgent: r.default_agent,
    client: r.run_client as RunClient | null,
    model: r.run_model,
    tickMs: r.tick_ms === null ? null : Number(r.tick_ms),
    deadlineMs: r.deadline_ms === null ? null : Number(r.deadline_ms),
    tickSeq: Number(r.tick_seq),
    reason: r.reason,
    createdBy: r.created_by,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    endedAt: r.ended_at,
  };
}

export async function readRun(db: AsyncSqlReader, id: number): Promise<PlanRun> {
  const row = await db.get<Row>('SELECT * FROM plan_runs WHERE id = ?', [id]);
  if (!row)
    throw new LedgerError(
      'NotFound',
      `plan run ${planRunKey(id)} does not exist: plan_status lists runs by their run_id`,
      {
        run_id: planRunKey(id),
      },
    );
  return decode(row);
}

export async function activeRunIds(db: AsyncSqlReader): Promise<number[]> {
  const rows = await db.all<{ id: number }>(
    "SELECT id FROM plan_runs WHERE status IN ('running', 'paused') ORDER BY id",
  );
  return rows.map((r) => Number(r.id));
}

export async function recentRuns(db: AsyncSqlReader, limit: number): Promise<PlanRun[]> {
  const rows = await db.all<Row>('SELECT * FROM plan_runs ORDER BY id DESC LIMIT ?', [limit]);
  return rows.map(decode);
}

/** The newest run of a plan graph, if any. */
export async function latestRunOfGraph(db: AsyncSqlReader, graphId: string): Promise<PlanRun | null> {
  const row = await db.get<Row>('SELECT * FROM plan_runs WHERE graph_id = ? ORDER BY id DESC LIMIT 1', [graphId]);
  return row ? decode(row) : null;
}

/** Runs going on (running or paused), oldest first. */
export async function activeRuns(db: AsyncSqlReader): Promise<PlanRun[]> {
  const rows = await db.all<Row>("SELECT * FROM plan_runs WHERE status IN ('running', 'paused') ORDER BY id");
  return rows.map(decode);
}

/** A run as it starts: what the starting call decides; the rest (status, states, ticks) begins empty. */
export type NewRun = Pick<
  PlanRun,
  | 'opId'
  | 'graphId'
  | 'treeId'
  | 'mode'
  | 'root'
  | 'variables'
  | 'agents'
  | 'defaultAgent'
  | 'client'
  | 'model'
  | 'tickMs'
  | 'deadlineMs'
  | 'createdBy'
> & { ts: string };

export async function insertRun(tx: AsyncSqlWriter, run: NewRun): Promise<number> {
  return tx.insert(
    `INSERT INTO plan_runs (op_id, graph_id, tree_id, mode, status, tree, state, variables, agents, default_agent, run_client, run_model, tick_ms, deadline_ms, tick_seq, created_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'running', ?, '{}', ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?) RETURNING id`,
    [
      run.opId,
      run.graphId,
      run.treeId,
      run.mode,
      JSON.stringify(run.root),
      JSON.stringify(run.variables),
      JSON.stringify(run.agents),
      run.defaultAgent,
      run.client,
      run.model,
      run.tickMs,
      run.deadlineMs,
      run.createdBy,
      run.ts,
      run.ts,
    ],
  );
}

/** Writes what a tick or a lifecycle call changed. */
export async function saveRun(tx: AsyncSqlWriter, run: PlanRun, ts: string): Promise<void> {
  await tx.run(
    'UPDATE plan_runs SET status = ?, state = ?, tick_seq = ?, reason = ?, updated_at = ?, ended_at = ? WHERE id = ?',
    [run.status, JSON.stringify(run.states), run.tickSeq, run.reason, ts, run.endedAt, run.id],
  );
  run.updatedAt = ts;
}

export async function recordOp(
  tx: AsyncSqlWriter,
  op: { opId: string; runId: number; nodeId: string | null; taskId: number | null; ts: string },
): Promise<void> {
  await tx.run(
    'INSERT INTO plan_run_ops (op_id, run_id, node_id, task_id, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (op_id) DO NOTHING',
    [op.opId, op.runId, op.nodeId, op.taskId, op.ts],
  );
}

export async function opRow(
  db: AsyncSqlReader,
  opId: string,
): Promise<{ run_id: number; node_id: string | null; task_id: number | null } | undefined> {
  return db.get('SELECT run_id, node_id, task_id FROM plan_run_ops WHERE op_id = ?', [opId]);
}

const IDS_PER_STATEMENT = 500;

/** The tasks of a run, with whether an agent works on each now. */
export async function taskViews(db: AsyncSqlReader, ids: readonly number[]): Promise<Map<number, TaskView>> {
  const out = new Map<number, TaskView>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += IDS_PER_STATEMENT) {
    const chunk = unique.slice(i, i + IDS_PER_STATEMENT);
    const marks = chunk.map(() => '?').join(', ');
    const rows = await db.all<{ id: number; status: string; assignee: string | null; assignee_type: string | null }>(
      `SELECT id, status, assignee, assignee_type FROM tasks WHERE id IN (${marks})`,
      chunk,
    );
    const running = new Set(
      (
        await db.all<{ task_id: number }>(
          `SELECT DISTINCT task_id FROM execution_logs WHERE status = 'running' AND task_id IN (${marks})`,
          chunk,
        )
      ).map((r) => Number(r.task_id)),
    );
    for (const r of rows)
      out.set(Number(r.id), {
        status: r.status,
        assignee: r.assignee,
        assigneeIsAgent: r.assignee_type === 'ai',
        running: running.has(Number(r.id)),
      });
  }
  return out;
}
