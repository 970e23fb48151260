import { pipelineInitWithContextInput, pipelineInitWithContextOutput } from '../../../core/pipelines/pipelineContracts';
import { defineTool } from '../../toolDefinition';

export const pipelineInitWithContextTool = defineTool({
  name: 'pipeline_init_with_context',
  family: 'pipeline',
  title: 'Pipeline: confirm and create',
  description:
    'Three-call handshake that starts a pipeline. 1st call (neither discussion_answers nor user_confirmation): detects the effort and returns needs_user_confirmation (or needs_discussion with --discuss on a text source). Discussion call (discussion_answers): enriches the request. Confirmation call (user_confirmation): creates the workspace (state.json, request.md) and returns ready. Passing both is an error.',
  input: pipelineInitWithContextInput,
  output: pipelineInitWithContextOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => services.pipelines.initWithContext(args),
});
