import { startWorkflowInput, startWorkflowOutput } from '../../../core/workflows/workflowContracts';
import { defineTool } from '../../toolDefinition';
import { idempotentCreate } from '../idempotentCreate';

export const startWorkflowTool = defineTool({
  name: 'start_workflow',
  family: 'tracking',
  idempotent: true,
  title: 'Start workflow',
  description:
    'Initialize a new workflow tracking session (a container of tasks). Call once per piece of work; pass the returned workflow_id to start_task.',
  input: startWorkflowInput,
  output: startWorkflowOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, ctx) => idempotentCreate('start_workflow', args, ctx, (input) => ctx.services.workflows.start(input)),
});
