import type { AsyncSqlWriter } from '../../ports/store';
import { appendCoordinationEvent } from '../../coordination/bus/coordinationEvents';
import type { PlanRun } from './planRunRows';
import { planRunKey } from './planRunRows';

/**
 * The events a plan run writes in the one events log, read by events_subscribe and
 * resources_watch (sc://runs/plan-<n>/events):
 *
 * - `BT_RUN`: the run's lifecycle (`phase`: start, node, pause, resume, cancel, complete, error),
 *   with `tree_id`, `mode` (bt or reactive), `dry_run` and the six correlation ids in the payload as
 *   in the columns; a `node` event per leaf that starts or ends (node_id, status, reason, task_id).
 * - `SCHEDULER`: the scheduler's telemetry, `msg` always `scheduler_event_enqueued` (a task of the
 *   run ended: the event that makes it tick) or `scheduler_tick_result` (a tick that changed
 *   something), with `event_type`, `pending_before`, `pending`, `pending_after` (leaves not settled),
 *   `base_priority`, `priority`, `duration_ms`, `batch_index`, `ticks_in_batch`, `sequence` and the
 *   underlying event as `event_payload`. A tick that changed nothing writes nothing: a reactive run
 *   ticking every 100 ms for hours does not flood the log.
 */

function correlation(run: PlanRun, nodeId: string | null = null) {
  return {
    run_id: planRunKey(run.id),
    op_id: run.opId,
    job_id: null,
    graph_id: run.graphId,
    node_id: nodeId,
    child_id: null,
  };
}

export type BtPhase = 'start' | 'node' | 'pause' | 'resume' | 'cancel' | 'complete' | 'error';

export function btRunEvent(
  tx: AsyncSqlWriter,
  run: PlanRun,
  now: number,
  phase: BtPhase,
  details: Record<string, unknown> & { node_id?: string; task_id?: number | null } = {},
): Promise<number> {
  const c = correlation(run, details.node_id ?? null);
  return appendCoordinationEvent(tx, {
    kind: 'BT_RUN',
    now,
    entity: 'plan_run',
    entityId: planRunKey(run.id),
    taskId: details.task_id ?? null,
    correlation: c,
    payload: {
      phase,
      tree_id: run.treeId,
      mode: run.mode,
      dry_run: false,
      status: run.status,
      ...(phase === 'error' ? { level: 'error' } : {}),
      ...c,
      ...details,
    },
  });
}

export interface SchedulerFields {
  msg: 'scheduler_event_enqueued' | 'scheduler_tick_result';
  event_type: string;
  pending_before: number;
  pending_after: number;
  duration_ms: number | null;
  event_payload: Record<string, unknown>;
}

export function schedulerEvent(tx: AsyncSqlWriter, run: PlanRun, now: number, f: SchedulerFields): Promise<number> {
  const c = correlation(run);
  return appendCoordinationEvent(tx, {
    kind: 'SCHEDULER',
    now,
    entity: 'plan_run',
    entityId: planRunKey(run.id),
    correlation: c,
    payload: {
      event_type: f.event_type,
      msg: f.msg,
      pending_before: f.pending_before,
      pending: f.pending_after,
      pending_after: f.pending_after,
      base_priority: 0,
      priority: 0,
      duration_ms: f.duration_ms,
      batch_index: run.tickSeq,
      ticks_in_batch: 1,
      sequence: run.tickSeq,
      event_payload: f.event_payload,
      ...c,
    },
  });
}
