import type { AsyncSqlWriter } from '../../ports/store';
import type { EventRow as LedgerEventRow } from '../../events/eventLog';
import { legacyCorrelation } from '../../events/correlation';
import type { Correlation } from '../../events/correlation';
import { newCoordinationEvent } from './eventRecords';
import type { EventKind } from '../../events/eventKinds';
import type { CoordinationEvent, EventLevel } from './eventRecords';
import { callerTokenId } from '../../caller';

/**
 * Events of the orchestrator tools in the one events log, with the six correlation ids in the
 * columns migration v6 added (null where unknown); every event read back carries all six, null
 * or not.
 */

/** Severity of an event from its kind: failures are errors, refusals and expiries warnings. */
export function eventLevelOf(kind: string, payload: unknown): EventLevel {
  const declared = typeof payload === 'object' && payload !== null ? (payload as { level?: unknown }).level : undefined;
  if (declared === 'debug' || declared === 'info' || declared === 'warn' || declared === 'error') return declared;
  const k = kind.toLowerCase();
  if (/(^|[._])(failed|error|crashed)$/.test(k)) return 'error';
  if (/(^|[._])(expired|expire|refused|cancelled|replayed)$/.test(k)) return 'warn';
  return 'info';
}

export interface NewCoordinationEvent {
  kind: EventKind;
  /** Epoch ms. */
  now: number;
  entity: string;
  entityId: string;
  payload: Record<string, unknown>;
  correlation?: Correlation;
  workflowId?: number | null;
  taskId?: number | null;
}

/** Appends one event in the caller's transaction; returns its seq. */
export function appendCoordinationEvent(tx: AsyncSqlWriter, e: NewCoordinationEvent): Promise<number> {
  const c = e.correlation ?? {};
  return tx.insert(
    `INSERT INTO events (ts, kind, workflow_id, task_id, entity, entity_id, payload, run_id, op_id, job_id, graph_id, node_id, child_id, token_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
    [
      new Date(e.now).toISOString(),
      e.kind,
      e.workflowId ?? null,
      e.taskId ?? null,
      e.entity,
      e.entityId,
      JSON.stringify(e.payload),
      c.run_id ?? null,
      c.op_id ?? null,
      c.job_id ?? null,
      c.graph_id ?? null,
      c.node_id ?? null,
      c.child_id ?? null,
      callerTokenId(),
    ],
  );
}

/** Columns an events row is read with (`eventColumns` then {@link toCoordinationEvent}). */
export const eventColumns =
  'seq, ts, kind, workflow_id, task_id, entity, entity_id, payload, run_id, op_id, job_id, graph_id, node_id, child_id';

export interface EventRow extends LedgerEventRow {
  run_id: string | null;
  op_id: string | null;
  job_id: string | null;
  graph_id: string | null;
  node_id: string | null;
  child_id: string | null;
}

function parsePayload(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** An events row as a {@link CoordinationEvent}, every correlation id present. */
export function toCoordinationEvent(row: EventRow): CoordinationEvent {
  const workflowId = row.workflow_id === null ? null : Number(row.workflow_id);
  const taskId = row.task_id === null ? null : Number(row.task_id);
  const legacy = legacyCorrelation(workflowId, taskId);
  const payload = parsePayload(row.payload);
  return newCoordinationEvent({
    seq: Number(row.seq),
    ts: Date.parse(row.ts) || 0,
    kind: row.kind,
    level: eventLevelOf(row.kind, payload),
    runId: row.run_id ?? legacy.run_id,
    opId: row.op_id,
    jobId: row.job_id,
    graphId: row.graph_id ?? legacy.graph_id,
    nodeId: row.node_id ?? legacy.node_id,
    childId: row.child_id,
    payload,
  });
}
