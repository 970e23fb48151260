import type { SqlReader, SqlWriter } from '../ports';
import { fromJson } from '../json';
import { legacyCorrelation } from '../coordination/coordinationEvents';

/**
 * The append-only events table: every change of the ledger, in `seq` order. It feeds task
 * timelines, resource-update notifications, `resources_watch` and the editor's live views.
 */
export interface LedgerEvent {
  seq: number;
  ts: string;
  /** e.g. 'workflow.started', 'task.started', 'task.completed', 'decision.logged'. */
  kind: string;
  workflowId: number | null;
  taskId: number | null;
  /** The entity the event is about when it is neither a workflow nor a task (e.g. 'memory'). */
  entity: string | null;
  entityId: string | null;
  payload: Record<string, unknown>;
}

export type NewEvent = Omit<LedgerEvent, 'seq' | 'workflowId' | 'taskId' | 'entity' | 'entityId' | 'payload'> &
  Partial<Pick<LedgerEvent, 'workflowId' | 'taskId' | 'entity' | 'entityId' | 'payload'>>;

export function appendEvent(tx: SqlWriter, e: NewEvent): number {
  // The correlation ids of the event bus (run, plan graph, node) follow from the workflow and task.
  const c = legacyCorrelation(e.workflowId ?? null, e.taskId ?? null);
  return tx.run('INSERT INTO events (ts, kind, workflow_id, task_id, entity, entity_id, payload, run_id, graph_id, node_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
    e.ts,
    e.kind,
    e.workflowId ?? null,
    e.taskId ?? null,
    e.entity ?? null,
    e.entityId ?? null,
    JSON.stringify(e.payload ?? {}),
    c.run_id,
    c.graph_id,
    c.node_id,
  ]).lastInsertRowid;
}

interface EventRow {
  seq: number;
  ts: string;
  kind: string;
  workflow_id: number | null;
  task_id: number | null;
  entity: string | null;
  entity_id: string | null;
  payload: string;
}

function toEvent(r: EventRow): LedgerEvent {
  return {
    seq: r.seq,
    ts: r.ts,
    kind: r.kind,
    workflowId: r.workflow_id,
    taskId: r.task_id,
    entity: r.entity,
    entityId: r.entity_id,
    payload: fromJson(r.payload, {}),
  };
}

/** Events after `afterSeq`, oldest first, at most `limit`. */
export function eventsSince(db: SqlReader, afterSeq: number, limit = 500): LedgerEvent[] {
  return db.all<EventRow>('SELECT * FROM events WHERE seq > ? ORDER BY seq LIMIT ?', [afterSeq, limit]).map(toEvent);
}

export function lastEventSeq(db: SqlReader): number {
  return db.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM events')?.seq ?? 0;
}
