import { bbDeleteInput, bbDeleteOutput } from '../../../../core/coordination/blackboard/blackboardContracts';
import { fullCorrelationOf } from '../correlation';
import { defineTool } from '../../../toolDefinition';

export const bbDeleteTool = defineTool({
  name: 'bb_delete',
  family: 'orchestrator',
  feature: 'blackboard',
  title: 'Delete blackboard entry',
  description: 'Delete one blackboard entry; deleted is false when there was no visible entry under the key.',
  input: bbDeleteInput,
  output: bbDeleteOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => {
    const correlation = fullCorrelationOf(args);
    const version = await services.blackboard.remove(args.key, correlation);
    return { op_id: correlation.op_id, key: args.key, deleted: version !== null, version };
  },
});
