import { bbBatchSetInput, bbBatchSetOutput } from '../../../core/coordination/blackboardContracts';
import { runIdempotent } from '../../../core/coordination/idempotencyRuns';
import { fullCorrelationOf } from './correlation';
import { idempotencySettings } from '../../features';
import { defineTool } from '../../toolDefinition';

export const bbBatchSetTool = defineTool({
  name: 'bb_batch_set',
  title: 'Set blackboard entries',
  description: 'Write several blackboard entries in one transaction: all of them, or none when one value cannot be stored. Returns the entries in input order.',
  input: bbBatchSetInput,
  output: bbBatchSetOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services, features }) => {
    const correlation = fullCorrelationOf(args);
    return {
      op_id: correlation.op_id,
      ...(await runIdempotent(
        services.engine,
        Date.now,
        { tool: 'bb_batch_set', key: args.idempotency_key, args, correlation },
        async (tx) => ({ entries: await services.blackboard.setManyInTransaction(tx, args.entries, correlation) }),
        idempotencySettings(features),
      )),
    };
  },
});
