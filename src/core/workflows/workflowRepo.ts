import type { AsyncSqlReader, AsyncSqlWriter } from '../ports/store';
import type { PlanStep, Workflow } from './workflowModel';
import { fromJson } from '../json';

interface WorkflowRow {
  id: number;
  name: string;
  description: string | null;
  plan: string;
  kind: string;
  created_at: string;
  updated_at: string;
}

function toWorkflow(r: WorkflowRow): Workflow {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    plan: fromJson<PlanStep[]>(r.plan, []),
    kind: r.kind,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function insertWorkflow(tx: AsyncSqlWriter, w: Omit<Workflow, 'id' | 'updatedAt'>): Promise<number> {
  return tx.insert(
    'INSERT INTO workflows (name, description, plan, kind, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
    [w.name, w.description, JSON.stringify(w.plan), w.kind, w.createdAt, w.createdAt],
  );
}

export async function touchWorkflow(tx: AsyncSqlWriter, id: number, at: string): Promise<void> {
  await tx.run('UPDATE workflows SET updated_at = ? WHERE id = ?', [at, id]);
}

export async function getWorkflow(db: AsyncSqlReader, id: number): Promise<Workflow | undefined> {
  const row = await db.get<WorkflowRow>('SELECT * FROM workflows WHERE id = ?', [id]);
  return row && toWorkflow(row);
}

export interface WorkflowSummary extends Workflow {
  taskCount: number;
  running: number;
  done: number;
  failed: number;
}

/** Workflows, most recently active first, with task counts by state. */
export async function listWorkflows(db: AsyncSqlReader, limit = 100, offset = 0): Promise<WorkflowSummary[]> {
  const rows = await db.all<WorkflowRow & { task_count: number; running: number; done: number; failed: number }>(
    `SELECT w.*,
       (SELECT COUNT(*) FROM tasks t WHERE t.workflow_id = w.id) AS task_count,
       (SELECT COUNT(*) FROM tasks t WHERE t.workflow_id = w.id AND t.status = 'in_progress') AS running,
       (SELECT COUNT(*) FROM tasks t WHERE t.workflow_id = w.id AND t.status = 'done') AS done,
       (SELECT COUNT(*) FROM tasks t WHERE t.workflow_id = w.id AND t.status = 'failed') AS failed
     FROM workflows w ORDER BY w.updated_at DESC, w.id DESC LIMIT ? OFFSET ?`,
    [limit, offset],
  );
  return rows.map((r) => ({
    ...toWorkflow(r),
    taskCount: r.task_count,
    running: r.running,
    done: r.done,
    failed: r.failed,
  }));
}

export async function countWorkflows(db: AsyncSqlReader): Promise<number> {
  return (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM workflows'))?.n ?? 0;
}
