import { childListInput, childListOutput } from '../../../../core/runtime/children/childContracts';
import { opIdFor } from '../../../../core/coordination/idempotency/idempotencyRuns';
import { defineTool } from '../../../toolDefinition';

export const childListTool = defineTool({
  name: 'child_list',
  family: 'orchestrator',
  title: 'List children',
  description: 'Child runtimes of the workspace, whichever server process started them, newest first.',
  input: childListInput,
  output: childListOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => {
    const opId = opIdFor(args);
    return {
      run_id: null,
      op_id: opId,
      job_id: null,
      graph_id: null,
      node_id: null,
      child_id: null,
      children: await services.children.list({ state: args.state, limit: args.limit }, opId),
    };
  },
});
