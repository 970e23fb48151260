import type { AsyncSqlWriter, SqlValue } from '../ports';
import type { EventRow as LedgerEventRow } from '../events/eventLog';
import { newCoordinationEvent } from './eventRecords';
import type { CoordinationEvent, EventLevel } from './eventRecords';

/**
 * Events of the orchestrator tools in the one events log, with the six correlation ids in the
 * columns migration v6 added (null where unknown). Older events and those the task services
 * write get theirs from the workflow and task they name (see {@link legacyCorrelation}), so
 * every event read back carries all six, null or not.
 */

/** Correlation ids as tools receive them (snake_case, absent when unknown). */
export interface Correlation {
  run_id?: string | null;
  op_id?: string | null;
  job_id?: string | null;
  graph_id?: string | null;
  node_id?: string | null;
  child_id?: string | null;
}

/** The run id and plan graph id of a workflow (a pipeline run is a workflow too): its ledger reference. */
export function workflowRunId(workflowId: number): string {
  return `wf-${workflowId}`;
}

/** The workflow a run or graph id names, or null (`wf-12` → 12). */
export function workflowOfId(id: string): number | null {
  const match = /^wf-([1-9][0-9]{0,14})$/.exec(id);
  return match ? Number(match[1]) : null;
}

/** The plan-graph node id of a task: its ledger reference (`task-12`). */
export function taskNodeId(taskId: number): string {
  return `task-${taskId}`;
}

/** The task a plan-graph node id names (`task-12` → 12), or null for a node that is not a task (`12` is not one). */
export function nodeTaskId(nodeId: string): number | null {
  const match = /^task-([1-9][0-9]{0,14})$/.exec(nodeId);
  return match ? Number(match[1]) : null;
}

/**
 * What an event written by the task services is about, in correlation terms: the workflow is
 * the run and its plan graph, the task is a node of that graph.
 */
export function legacyCorrelation(workflowId: number | null, taskId: number | null): { run_id: string | null; graph_id: string | null; node_id: string | null } {
  const run = workflowId === null ? null : workflowRunId(workflowId);
  return { run_id: run, graph_id: run, node_id: taskId === null ? null : taskNodeId(taskId) };
}

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
  kind: string;
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
    `INSERT INTO events (ts, kind, workflow_id, task_id, entity, entity_id, payload, run_id, op_id, job_id, graph_id, node_id, child_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
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
    ],
  );
}

/** Columns an events row is read with (`eventColumns` then {@link toCoordinationEvent}). */
export const eventColumns = 'seq, ts, kind, workflow_id, task_id, entity, entity_id, payload, run_id, op_id, job_id, graph_id, node_id, child_id';

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

/**
 * SQL condition (and its parameters) matching the events of a correlation id, the derived
 * ones included: `run_id`/`graph_id` of `wf-N` also match events of workflow N without the
 * column, and a `node_id` of `task-N` the events of that task.
 */
export function correlationCondition(field: 'run_id' | 'graph_id' | 'node_id' | 'op_id' | 'job_id' | 'child_id', value: string): { sql: string; params: SqlValue[] } {
  if (field === 'run_id' || field === 'graph_id') {
    const wf = workflowOfId(value);
    if (wf !== null) return { sql: `(${field} = ? OR (${field} IS NULL AND workflow_id = ?))`, params: [value, wf] };
  }
  const task = nodeTaskId(value);
  if (field === 'node_id' && task !== null) {
    return { sql: '(node_id = ? OR (node_id IS NULL AND task_id = ?))', params: [value, task] };
  }
  return { sql: `${field} = ?`, params: [value] };
}
