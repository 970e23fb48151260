import { runIdempotentOutside } from '../../core/coordination/idempotency/idempotencyRuns';
import { idempotencySettings } from './orchestrator/idempotentChange';
import type { ToolContext } from '../toolDefinition';

/**
 * A creating tool of a public contract (task_create, start_workflow, start_task, worker_command)
 * under its `idempotency_key`: a retry with the same key and arguments, from any process, gets
 * the first answer and creates nothing (the key is reserved, `create` makes its own writes, the
 * answer is recorded: runIdempotentOutside); the same key with other arguments is refused
 * (E-IDEMPOTENCY-CONFLICT). The answer carries `idempotent` and `idempotency_key` only when a key
 * was given, so an answer without one keeps the contract's shape.
 */
export async function idempotentCreate<A extends { idempotency_key?: string }, R extends object>(
  tool: string,
  args: A,
  { services, features }: ToolContext,
  create: (input: Omit<A, 'idempotency_key'>) => Promise<R>,
): Promise<R & { idempotent?: boolean; idempotency_key?: string }> {
  const { idempotency_key: key, ...input } = args;
  if (key === undefined) return create(input);
  const answer = await runIdempotentOutside(
    services.engine,
    Date.now,
    { tool, key, args: input },
    () => create(input),
    idempotencySettings(features),
  );
  return { ...answer, idempotency_key: key };
}
