import type { AsyncSqlReader, AsyncSqlWriter } from '../ports/store';
import { fromJson } from '../json';
import { legacyCorrelation } from './correlation';
import { thisMachine } from '../machine';
import type { EventKind } from './eventKinds';
import { callerTokenId } from '../caller';

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

export type NewEvent = Omit<
  LedgerEvent,
  'seq' | 'kind' | 'workflowId' | 'taskId' | 'entity' | 'entityId' | 'payload'
> & {
  kind: EventKind;
} & Partial<Pick<LedgerEvent, 'workflowId' | 'taskId' | 'entity' | 'entityId' | 'payload'>>;

export function appendEvent(tx: AsyncSqlWriter, e: NewEvent): Promise<number> {
  const machine = thisMachine();
  // The correlation ids of the event bus (run, plan graph, node) follow from the workflow and task.
  const c = legacyCorrelation(e.workflowId ?? null, e.taskId ?? null);
  return tx.insert(
    'INSERT INTO events (ts, kind, workflow_id, task_id, entity, entity_id, payload, machine_id, os_user, run_id, graph_id, node_id, token_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq',
    [
      e.ts,
      e.kind,
      e.workflowId ?? null,
      e.taskId ?? null,
      e.entity ?? null,
      e.entityId ?? null,
      JSON.stringify(e.payload ?? {}),
      machine.id,
      machine.user,
      c.run_id,
      c.graph_id,
      c.node_id,
      callerTokenId(),
    ],
  );
}

/** The columns of an `events` row every event has (the coordination events read six correlation ids more). */
export interface EventRow {
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
export async function eventsSince(db: AsyncSqlReader, afterSeq: number, limit = 500): Promise<LedgerEvent[]> {
  return (await db.all<EventRow>('SELECT * FROM events WHERE seq > ? ORDER BY seq LIMIT ?', [afterSeq, limit])).map(
    toEvent,
  );
}

export async function lastEventSeq(db: AsyncSqlReader): Promise<number> {
  return (await db.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM events'))?.seq ?? 0;
}
