import type { AsyncSqlReader, LedgerEngine, SqlValue } from '../ports/store';
import { notFound, parseId, taskKey, workflowKey, projectKey } from '../ids';
import { LedgerError } from '../errors';
import type { AgentCost, AgentCostRollup, CostTotals, TaskCost, WorkflowCost } from './costContracts';

/**
 * The cost roll-up: what agent runs cost per task, workflow, agent and project, summed by the
 * database from `execution_logs` (one GROUP BY per question, never a row per run in TypeScript),
 * in SQL that runs the same on the embedded store and on PostgreSQL.
 *
 * The reader functions (`taskCosts`, `workflowCosts`, `agentCosts`) take an `AsyncSqlReader` so
 * another read model (the Board, the Agents view) can fold them into its own read; the
 * `CostRollupService` (Services.costs) answers one question per call.
 */

/** Totals of no runs at all. */
export const noCost: CostTotals = Object.freeze({
  runs: 0,
  running: 0,
  costUsd: 0,
  unpricedRuns: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  durationSeconds: 0,
});

/** The aggregate columns every roll-up selects (`e` = execution_logs). */
const sums = `COUNT(*) AS runs,
  COALESCE(SUM(CASE WHEN e.status = 'running' THEN 1 ELSE 0 END), 0) AS running,
  COALESCE(SUM(CASE WHEN e.status <> 'running' AND e.cost_usd IS NULL THEN 1 ELSE 0 END), 0) AS unpriced,
  COALESCE(SUM(e.cost_usd), 0) AS cost_usd,
  COALESCE(SUM(e.input_tokens), 0) AS input_tokens,
  COALESCE(SUM(e.output_tokens), 0) AS output_tokens,
  COALESCE(SUM(e.cache_read_tokens), 0) AS cache_read_tokens,
  COALESCE(SUM(e.duration_ms), 0) AS duration_ms`;

interface SumRow {
  k: number | string | null;
  runs: number;
  running: number;
  unpriced: number;
  cost_usd: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  duration_ms: number;
}

/** Dollars to a millionth: sums of floats otherwise print as 0.052100000000000003. */
const dollars = (v: number): number => Math.round(Number(v) * 1e6) / 1e6;

function totalsOf(r: SumRow | undefined): CostTotals {
  if (!r) return { ...noCost };
  return {
    runs: Number(r.runs),
    running: Number(r.running),
    costUsd: dollars(r.cost_usd),
    unpricedRuns: Number(r.unpriced),
    inputTokens: Number(r.input_tokens),
    outputTokens: Number(r.output_tokens),
    cacheReadTokens: Number(r.cache_read_tokens),
    durationSeconds: Number(r.duration_ms) / 1000,
  };
}

/** Most expensive first, then most runs, then by key: a stable order on both engines. */
function byCost<T extends CostTotals>(a: T & { key: string }, b: T & { key: string }): number {
  return b.costUsd - a.costUsd || b.runs - a.runs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/** `IN (…)` lists stay well under either engine's limit of bound values. */
const chunkSize = 500;

/**
 * Sums grouped by `key` (an SQL expression), optionally only for the given keys. `from` is the
 * FROM clause (with `e` for execution_logs), `where` an extra condition with its parameters.
 */
async function grouped<K extends number | string>(
  db: AsyncSqlReader,
  q: { key: string; keyOf: (raw: number | string) => K; from: string; where?: string; params?: SqlValue[] },
  only?: readonly K[],
): Promise<Map<K | null, CostTotals>> {
  const out = new Map<K | null, CostTotals>();
  const run = async (extra: string, extraParams: SqlValue[]): Promise<void> => {
    const conds = [q.where, extra].filter((c): c is string => !!c);
    const sql = `SELECT ${q.key} AS k, ${sums} FROM ${q.from}${conds.length ? ` WHERE ${conds.join(' AND ')}` : ''} GROUP BY ${q.key}`;
    for (const r of await db.all<SumRow>(sql, [...(q.params ?? []), ...extraParams])) {
      out.set(r.k === null ? null : q.keyOf(r.k), totalsOf(r));
    }
  };
  if (only === undefined) {
    await run('', []);
    return out;
  }
  const keys = [...new Set(only)];
  for (let i = 0; i < keys.length; i += chunkSize) {
    const part = keys.slice(i, i + chunkSize);
    await run(`${q.key} IN (${part.map(() => '?').join(', ')})`, part);
  }
  return out;
}

/**
 * Each task's own runs, by task id (tasks without runs are absent: use `noCost`). Without
 * `taskIds`, every task of the ledger in one pass (the Board's case).
 */
export async function taskCosts(db: AsyncSqlReader, taskIds?: readonly number[]): Promise<Map<number, CostTotals>> {
  const map = await grouped<number>(
    db,
    { key: 'e.task_id', keyOf: Number, from: 'execution_logs e', where: 'e.task_id IS NOT NULL' },
    taskIds,
  );
  map.delete(null);
  return map as Map<number, CostTotals>;
}

/** Every run on each workflow's tasks (sub-tasks belong to the workflow too), by workflow id. */
export async function workflowCosts(
  db: AsyncSqlReader,
  workflowIds?: readonly number[],
): Promise<Map<number, CostTotals>> {
  const map = await grouped<number>(
    db,
    {
      key: 't.workflow_id',
      keyOf: Number,
      from: 'execution_logs e JOIN tasks t ON t.id = e.task_id',
      where: 't.workflow_id IS NOT NULL',
    },
    workflowIds,
  );
  map.delete(null);
  return map as Map<number, CostTotals>;
}

/** Every run of each agent, by agent name. */
export async function agentCosts(db: AsyncSqlReader, agents?: readonly string[]): Promise<Map<string, CostTotals>> {
  const map = await grouped<string>(db, { key: 'e.agent', keyOf: String, from: 'execution_logs e' }, agents);
  map.delete(null);
  return map as Map<string, CostTotals>;
}

/** Per agent, most expensive first. */
async function perAgent(db: AsyncSqlReader, from: string, where: string, params: SqlValue[]): Promise<AgentCost[]> {
  const rows = await grouped<string>(db, { key: 'e.agent', keyOf: String, from, where, params });
  return [...rows]
    .map(([agent, t]) => ({ key: String(agent), agent: String(agent), ...t }))
    .sort(byCost)
    .map(({ key: _key, ...a }) => a);
}

/** A task and every sub-task under it, any depth (a recursive CTE: both engines have it). */
const subtreeCte =
  'WITH RECURSIVE subtree(id) AS (SELECT id FROM tasks WHERE id = ? UNION ALL SELECT t.id FROM tasks t JOIN subtree s ON t.parent_id = s.id)';

/** The cost questions the faces ask (task_get, `task get`, the workflow report, the Agents view). */
export class CostRollupService {
  constructor(private readonly engine: LedgerEngine) {}

  /** A task's cost: its own runs, per agent, and with its sub-tasks. Unknown task: TaskNotFound. */
  async ofTask(ref: string | number): Promise<TaskCost> {
    const id = parseId('task', ref);
    return this.engine.read((db) => taskCostIn(db, id));
  }

  /** Own runs of many tasks at once (every task when `taskIds` is left out); tasks without runs are absent. */
  ofTasks(taskIds?: readonly number[]): Promise<Map<number, CostTotals>> {
    return this.engine.read((db) => taskCosts(db, taskIds));
  }

  /** A workflow's cost, per agent and per task. Unknown workflow: NotFound. */
  async ofWorkflow(ref: string | number): Promise<WorkflowCost> {
    const id = parseId('workflow', ref);
    return this.engine.read(async (db) => {
      if (!(await db.get('SELECT id FROM workflows WHERE id = ?', [id]))) throw notFound('workflow', workflowKey(id));
      const from = 'execution_logs e JOIN tasks t ON t.id = e.task_id';
      const total = (await workflowCosts(db, [id])).get(id) ?? { ...noCost };
      const tasks = await grouped<number>(db, {
        key: 'e.task_id',
        keyOf: Number,
        from,
        where: 't.workflow_id = ?',
        params: [id],
      });
      const byTask = [...tasks]
        .map(([taskId, t]) => ({ key: taskKey(Number(taskId)), taskId: taskKey(Number(taskId)), ...t }))
        .sort(byCost)
        .map(({ key: _key, ...t }) => t);
      return {
        workflowId: workflowKey(id),
        ...total,
        byAgent: await perAgent(db, from, 't.workflow_id = ?', [id]),
        byTask,
      };
    });
  }

  /** Every run of an agent, per project. An agent without runs costs nothing (it need not be defined any more). */
  async ofAgent(agent: string): Promise<AgentCostRollup> {
    const name = agent.trim();
    if (name === '' || name.length > 100)
      throw new LedgerError('ValidationError', 'agent: give an agent name (1–100 characters)', { agent });
    return this.engine.read(async (db) => {
      const total = (await agentCosts(db, [name])).get(name) ?? { ...noCost };
      const projects = await grouped<number>(db, {
        key: 'e.project_id',
        keyOf: Number,
        from: 'execution_logs e',
        where: 'e.agent = ?',
        params: [name],
      });
      const byProject = [...projects]
        .map(([p, t]) => ({
          key: p === null ? '' : projectKey(Number(p)),
          projectId: p === null ? null : projectKey(Number(p)),
          ...t,
        }))
        .sort(byCost)
        .map(({ key: _key, ...t }) => t);
      return { agent: name, ...total, byProject };
    });
  }

  /** Every agent that ran, most expensive first (the Agents view). */
  agents(): Promise<AgentCost[]> {
    return this.engine.read((db) => perAgent(db, 'execution_logs e', '', []));
  }
}

/** A task's cost inside a read (task_get folds it into its own answer). */
export async function taskCostIn(db: AsyncSqlReader, taskId: number): Promise<TaskCost> {
  if (!(await db.get('SELECT id FROM tasks WHERE id = ?', [taskId]))) throw notFound('task', taskId);
  const sub = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM tasks WHERE parent_id = ?', [taskId]);
  return taskCostOf(db, taskId, Number(sub?.n ?? 0) > 0);
}

/**
 * The cost of a task known to exist; `hasSubtasks` says whether to add the sum with its sub-tasks
 * (a promise: the caller may still be asking — the own runs are asked at once, beside it).
 */
export async function taskCostOf(
  db: AsyncSqlReader,
  taskId: number,
  hasSubtasks: boolean | Promise<boolean>,
): Promise<TaskCost> {
  const ownPart = ownAndPerAgent(db, taskId);
  const withSubtasks = (await hasSubtasks)
    ? totalsOf(
        await db.get<SumRow>(
          `${subtreeCte} SELECT NULL AS k, ${sums} FROM execution_logs e WHERE e.task_id IN (SELECT id FROM subtree)`,
          [taskId],
        ),
      )
    : null;
  const [own, byAgent] = await ownPart;
  return { ...own, byAgent, withSubtasks };
}

/**
 * A task's own runs and their split per agent in one statement: the same sums as `taskCosts` and
 * `perAgent` ask for apart (part 0: the task's row, absent without runs; part 1: a row per agent).
 */
async function ownAndPerAgent(db: AsyncSqlReader, taskId: number): Promise<[CostTotals, AgentCost[]]> {
  const rows = await db.all<SumRow & { part: number }>(
    `SELECT 0 AS part, NULL AS k, ${sums} FROM execution_logs e WHERE e.task_id = ? GROUP BY e.task_id
     UNION ALL SELECT 1 AS part, e.agent AS k, ${sums} FROM execution_logs e WHERE e.task_id = ? GROUP BY e.agent`,
    [taskId, taskId],
  );
  const own = rows.find((r) => Number(r.part) === 0);
  const byAgent = rows
    .filter((r) => Number(r.part) === 1)
    .map((r) => ({ key: String(r.k), agent: String(r.k), ...totalsOf(r) }))
    .sort(byCost)
    .map(({ key: _key, ...a }) => a);
  return [own ? totalsOf(own) : { ...noCost }, byAgent];
}
