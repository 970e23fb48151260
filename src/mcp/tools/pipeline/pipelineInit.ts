import { pipelineInitInput, pipelineInitOutput } from '../../../core/pipelines/pipelineContracts';
import { defineTool } from '../../toolDefinition';

export const pipelineInitTool = defineTool({
  name: 'pipeline_init',
  family: 'pipeline',
  title: 'Pipeline: detect input',
  description:
    'Parse the arguments of a pipeline request (text, a GitHub issue URL, a Jira issue URL, or an existing .specs/ workspace to resume), detect the source type and flags (--auto, --nopr, --debug, --discuss, --effort S|M|L) and propose a workspace. No side effects. Then call pipeline_init_with_context (new pipeline) or pipeline_next_action (resume).',
  input: pipelineInitInput,
  output: pipelineInitOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => services.pipelines.init(args),
});
