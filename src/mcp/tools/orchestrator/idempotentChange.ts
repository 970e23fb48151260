import type { Correlation } from '../../../core/events/correlation';
import { runIdempotent } from '../../../core/coordination/idempotency/idempotencyRuns';
import type { AnswerRecord } from '../../../core/coordination/idempotency/idempotencyRuns';
import type { AsyncSqlWriter } from '../../../core/ports/store';
import { defaultIdempotencySettings } from '../../../core/coordination/idempotency/idempotency';
import type { IdempotencySettings } from '../../../core/coordination/idempotency/idempotency';
import type { ToolContext } from '../../toolDefinition';

/**
 * The shape every orchestrator tool that writes in its key's transaction shares (bb_set,
 * bb_batch_set, graph_batch_mutate, graph_patch): `change` runs under the call's
 * `idempotency_key` in one write, with the server's idempotency switch, and the answer leads
 * with the call's op_id. `record`: how the answer is kept under the key (whole by default).
 */
export async function idempotentChange<R extends object>(
  tool: string,
  args: Record<string, unknown> & { idempotency_key?: string },
  correlation: Correlation & { op_id: string },
  { services, features }: ToolContext,
  change: (tx: AsyncSqlWriter) => Promise<R>,
  record?: AnswerRecord<NoInfer<R>>,
): Promise<{ op_id: string } & R & { idempotent: boolean; idempotency_key: string | null }> {
  const result = await runIdempotent(
    services.engine,
    Date.now,
    { tool, key: args.idempotency_key, args, correlation },
    change,
    idempotencySettings(features),
    record,
  );
  return { op_id: correlation.op_id, ...result };
}

/** How `idempotency_key` behaves under these features (every feature on when none were given: the CLI). */
export function idempotencySettings(on: ReadonlySet<string> | undefined): IdempotencySettings {
  return { ...defaultIdempotencySettings, enabled: on === undefined || on.has('idempotency') };
}
