import type { SqlValue } from '../ports/store';

/**
 * The six correlation ids of an event (run, op, job, graph, node, child) and how the ledger's
 * own references map onto them: a workflow is a run and its plan graph `wf-<id>`, a task is a
 * node `task-<id>` of that graph. Events written without them get theirs from the workflow and
 * task they name (see {@link legacyCorrelation}).
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
export function legacyCorrelation(
  workflowId: number | null,
  taskId: number | null,
): { run_id: string | null; graph_id: string | null; node_id: string | null } {
  const run = workflowId === null ? null : workflowRunId(workflowId);
  return { run_id: run, graph_id: run, node_id: taskId === null ? null : taskNodeId(taskId) };
}

/**
 * SQL condition (and its parameters) matching the events of a correlation id, the derived
 * ones included: `run_id`/`graph_id` of `wf-N` also match events of workflow N without the
 * column, and a `node_id` of `task-N` the events of that task.
 */
export function correlationCondition(
  field: 'run_id' | 'graph_id' | 'node_id' | 'op_id' | 'job_id' | 'child_id',
  value: string,
): { sql: string; params: SqlValue[] } {
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
