import type { AsyncSqlReader, LedgerEngine } from '../ports';
import { notFound, workflowKey } from '../ids';
import { boardCards } from './boardModel';
import type { BoardSnapshot, BoardTaskRow, BoardWaitingPipeline } from './boardModel';
import { readDependencies } from './taskDependencies';
import { layoutGraph, planGraphModel } from './planGraphLayout';
import type { LayoutInput, PlacedGraph, PlanGraphModel, PlanTaskRow } from './planGraphLayout';

/** Layouts kept for workflows whose shape did not change (a live state change needs no new layout). */
const keptLayouts = 16;

/**
 * Read models of the editor's Board and plan graph, over the asynchronous port so they read the
 * same on the embedded store and on PostgreSQL. A handful of whole-table reads per call (no query
 * per task): the board of 2,000 tasks is one pass.
 */
export class BoardQueries {
  private readonly layouts = new Map<number, { shape: string; placed: PlacedGraph }>();

  constructor(private readonly engine: LedgerEngine) {}

  /** Every task of the ledger in its column, and the pipelines waiting for a person. */
  board(): Promise<BoardSnapshot> {
    return this.engine.read(async (db) => {
      const [tasks, dependencies, waiting, agents] = [await readTasks(db), await readDependencies(db), await readWaiting(db), await readAgents(db)];
      const clients = new Map(agents.map((a) => [a.name, a.client]));
      for (const t of tasks) if (t.assignee && !clients.has(t.assignee)) clients.set(t.assignee, t.session?.agent === t.assignee ? t.session.client : null);
      return {
        cards: boardCards(tasks, dependencies, waiting, clients),
        agents: [...clients].map(([name, client]) => ({ name, client })).sort((a, b) => a.name.localeCompare(b.name)),
      };
    });
  }

  /** A workflow's tasks and their dependencies, laid out as a DAG. */
  async planGraph(workflowId: number): Promise<PlanGraphModel> {
    const { workflow, tasks, dependencies } = await this.engine.read(async (db) => {
      const workflow = await db.get<{ id: number; name: string }>('SELECT id, name FROM workflows WHERE id = ?', [workflowId]);
      if (!workflow) throw notFound('workflow', workflowId);
      const rows = await db.all<{ id: number; title: string; status: string; result: string | null; assignee: string | null; progress: number | null }>(
        'SELECT id, title, status, result, assignee, progress FROM tasks WHERE workflow_id = ? ORDER BY id',
        [workflowId],
      );
      const sessions = await latestSessions(db, workflowId);
      const tasks = rows.map((r): PlanTaskRow => ({
        id: Number(r.id),
        title: r.title,
        status: r.status,
        result: r.result,
        agent: r.assignee ?? sessions.get(Number(r.id))?.agent ?? null,
        progress: r.progress === null ? null : Number(r.progress),
      }));
      return { workflow, tasks, dependencies: await readDependencies(db, workflowId) };
    });
    return planGraphModel({ id: Number(workflow.id), key: workflowKey(Number(workflow.id)), name: workflow.name }, tasks, dependencies, (input) => this.place(workflowId, input));
  }

  /** dagre's layout of `input`, reused while the workflow's nodes and edges stay the same. */
  private place(workflowId: number, input: LayoutInput): PlacedGraph {
    const shape = JSON.stringify(input);
    const kept = this.layouts.get(workflowId);
    if (kept?.shape === shape) return kept.placed;
    const placed = layoutGraph(input);
    this.layouts.delete(workflowId);
    this.layouts.set(workflowId, { shape, placed });
    if (this.layouts.size > keptLayouts) this.layouts.delete(this.layouts.keys().next().value!);
    return placed;
  }
}

interface TaskRow {
  id: number;
  title: string;
  status: string;
  result: string | null;
  assignee: string | null;
  last_milestone: string | null;
  progress: number | null;
  workflow: string | null;
  outcome: string | null;
  updated_at: string;
}

async function readTasks(db: AsyncSqlReader): Promise<BoardTaskRow[]> {
  const rows = await db.all<TaskRow>(
    `SELECT t.id, t.title, t.status, t.result, t.assignee, t.last_milestone, t.progress, w.name AS workflow, t.outcome, t.updated_at
     FROM tasks t LEFT JOIN workflows w ON w.id = t.workflow_id`,
  );
  const reviews = new Map<number, string>();
  for (const r of await db.all<{ task_id: number; description: string }>('SELECT task_id, description FROM issues WHERE requires_human_review = 1 ORDER BY id')) {
    reviews.set(Number(r.task_id), r.description);
  }
  const sessions = await latestSessions(db);
  return rows.map((r) => {
    const id = Number(r.id);
    return {
      id,
      title: r.title,
      status: r.status,
      result: r.result,
      assignee: r.assignee,
      lastMilestone: r.last_milestone,
      progress: r.progress === null ? null : Number(r.progress),
      workflow: r.workflow,
      manualReview: manualReview(r.outcome),
      reviewIssue: reviews.get(id) ?? null,
      session: sessions.get(id) ?? null,
      // No run reports a cost into the ledger yet (the agent runtime will): the card leaves it blank.
      cost: null,
      updatedAt: r.updated_at,
    };
  });
}

function manualReview(outcome: string | null): { reason: string | null } | null {
  if (!outcome) return null;
  try {
    const o = JSON.parse(outcome) as { manual_review_needed?: unknown; manual_review_reason?: unknown };
    return o.manual_review_needed === true ? { reason: typeof o.manual_review_reason === 'string' ? o.manual_review_reason : null } : null;
  } catch {
    return null;
  }
}

/** The agent and client of each task's latest session. */
async function latestSessions(db: AsyncSqlReader, workflowId?: number): Promise<Map<number, { agent: string; client: string | null }>> {
  const rows = await db.all<{ task_id: number; agent: string; client: string | null }>(
    `SELECT s.task_id, s.agent, s.client FROM sessions s
     JOIN (SELECT task_id, MAX(id) AS id FROM sessions GROUP BY task_id) latest ON latest.id = s.id
     ${workflowId === undefined ? '' : 'JOIN tasks t ON t.id = s.task_id WHERE t.workflow_id = ?'}`,
    workflowId === undefined ? [] : [workflowId],
  );
  return new Map(rows.map((r) => [Number(r.task_id), { agent: r.agent, client: r.client }]));
}

async function readWaiting(db: AsyncSqlReader): Promise<BoardWaitingPipeline[]> {
  const rows = await db.all<{ id: number; workspace: string; title: string; workflow: string | null; waiting: string | null; updated_at: string }>(
    `SELECT p.id, p.workspace, p.title, w.name AS workflow, p.waiting, p.updated_at FROM pipelines p LEFT JOIN workflows w ON w.id = p.workflow_id
     WHERE p.status = 'awaiting_human'`,
  );
  const out: BoardWaitingPipeline[] = [];
  for (const r of rows) {
    let waiting: { kind?: unknown; name?: unknown } | null = null;
    try {
      waiting = r.waiting ? (JSON.parse(r.waiting) as { kind?: unknown; name?: unknown }) : null;
    } catch {
      waiting = null;
    }
    out.push({
      id: Number(r.id),
      workspace: r.workspace,
      title: r.title,
      workflow: r.workflow,
      kind: waiting?.kind === 'human_gate' ? 'human_gate' : 'checkpoint',
      name: typeof waiting?.name === 'string' ? waiting.name : 'checkpoint',
      updatedAt: r.updated_at,
    });
  }
  return out;
}

async function readAgents(db: AsyncSqlReader): Promise<{ name: string; client: string | null }[]> {
  return db.all<{ name: string; client: string | null }>('SELECT name, client FROM agents ORDER BY name');
}
