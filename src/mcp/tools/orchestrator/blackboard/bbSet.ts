import { bbSetInput, bbSetOutput } from '../../../../core/coordination/blackboard/blackboardContracts';
import { fullCorrelationOf } from '../correlation';
import { defineTool } from '../../../toolDefinition';
import { idempotentChange } from '../idempotentChange';

export const bbSetTool = defineTool({
  name: 'bb_set',
  family: 'orchestrator',
  feature: 'blackboard',
  idempotent: true,
  title: 'Set blackboard entry',
  description:
    'Write one entry of the shared blackboard (key, JSON value, tags, optional ttl_ms) that every agent of the workspace reads with bb_get / bb_query and follows with bb_watch. Returns the stored entry and its version.',
  input: bbSetInput,
  output: bbSetOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: (args, ctx) => {
    const correlation = fullCorrelationOf(args);
    return idempotentChange('bb_set', args, correlation, ctx, (tx) =>
      ctx.services.blackboard.setInTransaction(
        tx,
        { key: args.key, value: args.value, tags: args.tags, ttl_ms: args.ttl_ms },
        correlation,
      ),
    );
  },
});
