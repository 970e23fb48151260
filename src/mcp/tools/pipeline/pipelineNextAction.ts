import { pipelineNextActionInput, pipelineNextActionOutput } from '../../../core/pipelines/pipelineContracts';
import { nextActionWaitingForPerson } from '../../../core/pipelines/pipelineWaits';
import { defineTool } from '../../toolDefinition';

export const pipelineNextActionTool = defineTool({
  name: 'pipeline_next_action',
  family: 'pipeline',
  waits: true,
  title: 'Pipeline: next action',
  description:
    'The pipeline loop: returns the next typed action to execute (spawn_agent with a ready prompt, checkpoint, exec, write_file, human_gate, done). Execute it, then call again with previous_action_complete=true and the metrics; the engine validates the artifact, parses review verdicts and advances. Never choose phases yourself. A checkpoint or human_gate is returned again until a person decides (in VS Code or with `agent-ledger pipeline approve|reject`); pass wait_ms (≤ 50000) to wait for that decision and get the next action the moment it is made.',
  input: pipelineNextActionInput,
  output: pipelineNextActionOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async ({ wait_ms, ...args }, { services }) =>
    nextActionWaitingForPerson(
      services.engine,
      Date.now,
      args.user_response === undefined ? wait_ms : 0,
      await services.pipelines.nextAction(args),
      () => services.pipelines.nextAction({ workspace: args.workspace }),
    ),
});
