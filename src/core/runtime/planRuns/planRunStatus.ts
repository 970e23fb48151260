import type { AsyncSqlReader } from '../../ports/store';
import { executionKey, taskKey } from '../../ids';
import { nodeTaskId } from '../../events/correlation';
import type { BtNode } from './behaviourTree';
import { leavesOf, walk } from './behaviourTree';
import type { PlanRun } from './planRunRows';
import { planRunKey, taskViews } from './planRunRows';
import type { PlanNodeOutput, PlanRunOutput } from './planRunContracts';

const IDS_PER_STATEMENT = 500;

/**
 * A run as plan_status answers it: each node's state, and for a task leaf its task's status, its
 * agent, the agent's run going on now and what its runs cost so far; the run's progress.
 */
export async function snapshot(db: AsyncSqlReader, run: PlanRun): Promise<PlanRunOutput> {
  const leaves = leavesOf(run.root);
  const ids = leaves.flatMap((l) => (l.type === 'task' ? [nodeTaskId(l.node_id)!] : []));
  const tasks = await taskViews(db, ids);
  const executions = new Map<number, string>();
  const costs = new Map<number, number>();
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    const chunk = ids.slice(i, i + IDS_PER_STATEMENT);
    const marks = chunk.map(() => '?').join(', ');
    for (const r of await db.all<{ id: number; task_id: number }>(
      `SELECT id, task_id FROM execution_logs WHERE status = 'running' AND task_id IN (${marks})`,
      chunk,
    ))
      executions.set(Number(r.task_id), executionKey(Number(r.id)));
    for (const r of await db.all<{ task_id: number; cost: number | null }>(
      `SELECT task_id, SUM(cost_usd) AS cost FROM execution_logs WHERE task_id IN (${marks}) GROUP BY task_id`,
      chunk,
    ))
      if (r.cost !== null) costs.set(Number(r.task_id), Number(r.cost));
  }
  const nodes: PlanNodeOutput[] = [];
  const visit = (node: BtNode, depth: number): void => {
    const s = run.states[node.id!];
    const taskId = node.type === 'task' ? nodeTaskId(node.node_id) : null;
    const task = taskId === null ? undefined : tasks.get(taskId);
    nodes.push({
      id: node.id!,
      type: node.type,
      depth,
      status: s?.status ?? 'idle',
      reason: s?.reason ?? null,
      task_id: taskId === null ? null : taskKey(taskId),
      task_status: task?.status ?? null,
      agent:
        node.type === 'task'
          ? (node.agent ??
            run.agents[node.node_id] ??
            (task?.assigneeIsAgent ? task.assignee : null) ??
            run.defaultAgent)
          : null,
      execution_id: taskId === null ? null : (executions.get(taskId) ?? null),
      attempts: s?.attempts ?? null,
      op_id: s?.op_id ?? null,
      cost_usd: taskId === null ? null : (costs.get(taskId) ?? null),
    });
  };
  walk(run.root, visit);
  const count = (pred: (st: string) => boolean) =>
    leaves.filter((l) => pred(run.states[l.id]?.status ?? 'idle')).length;
  const succeeded = count((s) => s === 'success');
  const failed = count((s) => s === 'failure');
  const skipped = count((s) => s === 'skipped' || s === 'cancelled');
  const running = count((s) => s === 'running');
  return {
    run_id: planRunKey(run.id),
    op_id: run.opId,
    graph_id: run.graphId,
    tree_id: run.treeId,
    mode: run.mode,
    status: run.status,
    reason: run.reason,
    client: run.client,
    model: run.model,
    tick_ms: run.tickMs,
    ticks: run.tickSeq,
    created_by: run.createdBy,
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    ended_at: run.endedAt,
    progress: {
      leaves: leaves.length,
      succeeded,
      failed,
      running,
      waiting: leaves.length - succeeded - failed - skipped - running,
      skipped,
      percent: leaves.length === 0 ? 100 : Math.round(((succeeded + failed + skipped) / leaves.length) * 1000) / 10,
    },
    nodes,
  };
}
