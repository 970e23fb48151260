import { bbSetInput, bbSetOutput } from '../../../core/coordination/blackboardContracts';
import { runIdempotent } from '../../../core/coordination/idempotencyRuns';
import { fullCorrelationOf } from './correlation';
import { idempotencySettings } from '../../features';
import { defineTool } from '../../toolDefinition';

export const bbSetTool = defineTool({
  name: 'bb_set',
  title: 'Set blackboard entry',
  description:
    'Write one entry of the shared blackboard (key, JSON value, tags, optional ttl_ms) that every agent of the workspace reads with bb_get / bb_query and follows with bb_watch. Returns the stored entry and its version.',
  input: bbSetInput,
  output: bbSetOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services, features }) => {
    const correlation = fullCorrelationOf(args);
    return {
      op_id: correlation.op_id,
      ...(await runIdempotent(
        services.engine,
        Date.now,
        { tool: 'bb_set', key: args.idempotency_key, args, correlation },
        (tx) => services.blackboard.setInTransaction(tx, { key: args.key, value: args.value, tags: args.tags, ttl_ms: args.ttl_ms }, correlation),
        idempotencySettings(features),
      )),
    };
  },
});
