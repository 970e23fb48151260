import { shouldStartInput, shouldStartOutput } from '../../../../core/runtime/pm/runtimeContracts';
import { defineTool } from '../../../toolDefinition';

export const shouldStartTool = defineTool({
  name: 'should_start',
  family: 'pm',
  audience: 'runner',
  title: 'Should start',
  description:
    'Runner API: whether to launch this agent in this project now. False when the agent or project does not exist or an instance of this (agent, project) is already running; true (with ai_type, the CLI to launch) when the agent has an in_progress task in the project. Says nothing about the task.',
  input: shouldStartInput,
  output: shouldStartOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => services.runtime.shouldStart(args.agent_id, args.project_id),
});
