import { bbGetInput, bbGetOutput } from '../../../../core/coordination/blackboard/blackboardContracts';
import { coordinationError } from '../../../../core/coordination/coordinationErrors';
import { opIdFor } from '../../../../core/coordination/idempotency/idempotencyRuns';
import { defineTool } from '../../../toolDefinition';

export const bbGetTool = defineTool({
  name: 'bb_get',
  family: 'orchestrator',
  feature: 'blackboard',
  title: 'Get blackboard entry',
  description: 'Read one blackboard entry by key. An absent or expired key is refused with E-BB-NOTFOUND.',
  input: bbGetInput,
  output: bbGetOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => {
    const entry = await services.blackboard.get(args.key);
    if (!entry) throw coordinationError('E-BB-NOTFOUND', `no blackboard entry '${args.key}'`, { key: args.key });
    return { op_id: opIdFor(args), entry };
  },
});
