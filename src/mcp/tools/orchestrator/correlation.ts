import type { Correlation } from '../../../core/events/correlation';
import { opIdFor } from '../../../core/coordination/idempotency/idempotencyRuns';

/** The correlation ids a call passed (its op_id made up when absent), copied onto the events it emits. */
export function correlationOf(
  args: { run_id?: string; op_id?: string; job_id?: string; node_id?: string; child_id?: string },
  graphId: string | null = null,
): Correlation & { op_id: string } {
  return {
    run_id: args.run_id ?? null,
    op_id: opIdFor(args),
    job_id: args.job_id ?? null,
    graph_id: graphId,
    node_id: args.node_id ?? null,
    child_id: args.child_id ?? null,
  };
}

/** The six correlation ids of a call that takes all of them (bb_*), its op_id made up when absent. */
export function fullCorrelationOf(args: {
  run_id?: string;
  op_id?: string;
  job_id?: string;
  graph_id?: string;
  node_id?: string;
  child_id?: string;
}): Correlation & { op_id: string } {
  return { ...correlationOf(args, args.graph_id ?? null) };
}
