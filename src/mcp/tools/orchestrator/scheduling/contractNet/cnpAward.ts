import { cnpAwardInput, cnpAwardResult } from '../../../../../core/scheduling/contractNet/contractNetContracts';
import { defineTool } from '../../../../toolDefinition';

export const cnpAwardTool = defineTool({
  name: 'cnp_award',
  family: 'orchestrator',
  title: 'Award a task',
  description:
    'Award an open call to its best bid (lowest effective cost), or to agent_id, and assign the task to the winner. A bid whose write scope may overlap a running task’s cannot win (E-CNP-SCOPE-CONFLICT lists the collisions) unless allowOverlap is true.',
  input: cnpAwardInput,
  output: cnpAwardResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => services.scheduling.contractNet.award(args),
});
