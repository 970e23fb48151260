import { pipelineNextActionInput, pipelineNextActionOutput } from '../../../core/pipelines/pipelineContracts';
import { defineTool } from '../../toolDefinition';

export const pipelineNextActionTool = defineTool({
  name: 'pipeline_next_action',
  title: 'Pipeline: next action',
  description:
    'The pipeline loop: returns the next typed action to execute (spawn_agent with a ready prompt, checkpoint, exec, write_file, human_gate, done). Execute it, then call again with previous_action_complete=true and the metrics; the engine validates the artifact, parses review verdicts and advances. Never choose phases yourself. A checkpoint or human_gate is returned again until a person decides (in VS Code or with `agent-ledger pipeline approve|reject`).',
  input: pipelineNextActionInput,
  output: pipelineNextActionOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, { services }) => services.pipelines.nextAction(args),
});
