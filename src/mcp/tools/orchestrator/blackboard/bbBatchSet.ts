import { bbBatchSetInput, bbBatchSetOutput } from '../../../../core/coordination/blackboard/blackboardContracts';
import { fullCorrelationOf } from '../correlation';
import { defineTool } from '../../../toolDefinition';
import { idempotentChange } from '../idempotentChange';

export const bbBatchSetTool = defineTool({
  name: 'bb_batch_set',
  family: 'orchestrator',
  feature: ['blackboard', 'bulk'],
  idempotent: true,
  title: 'Set blackboard entries',
  description:
    'Write several blackboard entries in one transaction: all of them, or none when one value cannot be stored. Returns the entries in input order.',
  input: bbBatchSetInput,
  output: bbBatchSetOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: (args, ctx) => {
    const correlation = fullCorrelationOf(args);
    return idempotentChange('bb_batch_set', args, correlation, ctx, async (tx) => ({
      entries: await ctx.services.blackboard.setManyInTransaction(tx, args.entries, correlation),
    }));
  },
});
