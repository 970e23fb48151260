import { bbQueryInput, bbQueryOutput } from '../../../../core/coordination/blackboard/blackboardContracts';
import { opIdFor } from '../../../../core/coordination/idempotency/idempotencyRuns';
import { defineTool } from '../../../toolDefinition';

export const bbQueryTool = defineTool({
  name: 'bb_query',
  family: 'orchestrator',
  feature: 'blackboard',
  title: 'Query blackboard',
  description:
    'List visible blackboard entries by keys, key prefix and tags (all must match), most recently updated first.',
  input: bbQueryInput,
  output: bbQueryOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => {
    const entries = await services.blackboard.query(
      { keys: args.keys, key_prefix: args.key_prefix, tags: args.tags },
      args.limit,
    );
    return {
      op_id: opIdFor(args),
      entries,
      next_cursor: entries.length > 0 ? entries[entries.length - 1].version : null,
    };
  },
});
