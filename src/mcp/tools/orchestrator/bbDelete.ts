import { bbDeleteInput, bbDeleteOutput } from '../../../core/coordination/blackboardContracts';
import { opIdFor } from '../../../core/coordination/idempotencyRuns';
import { defineTool } from '../../toolDefinition';

export const bbDeleteTool = defineTool({
  name: 'bb_delete',
  title: 'Delete blackboard entry',
  description: 'Delete one blackboard entry; deleted is false when there was no visible entry under the key.',
  input: bbDeleteInput,
  output: bbDeleteOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => {
    const version = await services.blackboard.remove(args.key);
    return { op_id: opIdFor(args), key: args.key, deleted: version !== null, version };
  },
});
