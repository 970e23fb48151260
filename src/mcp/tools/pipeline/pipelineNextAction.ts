import { z } from 'zod';
import { defineTool } from '../../toolDefinition';
import { reportResultOutput, workspaceInput } from '../../../core/pipelines/pipelineContracts';

export const pipelineNextActionTool = defineTool({
  name: 'pipeline_next_action',
  family: 'pipeline',
  title: 'Pipeline: next action',
  description:
    'The pipeline loop: returns the next typed action to execute (spawn_agent with a ready prompt, checkpoint, exec, write_file, human_gate, done). Execute it, then call again with previous_action_complete=true and the metrics; the engine validates the artifact, parses review verdicts and advances. Never choose phases yourself. A checkpoint or human_gate is returned again until a person decides (in VS Code or with `agent-ledger pipeline approve|reject`).',
  input: z.strictObject({
    workspace: workspaceInput,
    previous_action_complete: z.boolean().optional().describe('true after the previous spawn_agent / exec / write_file action finished'),
    previous_tokens: z.number().min(0).optional().describe('Tokens the previous action used'),
    previous_duration_ms: z.number().min(0).optional().describe('Duration of the previous action (ms)'),
    previous_model: z.string().max(200).optional().describe('Model the previous action used'),
    previous_setup_only: z.boolean().optional().describe('true when the previous exec was setup-only'),
    user_response: z
      .string()
      .max(20_000)
      .optional()
      .describe("The user's answer to a checkpoint (\"approve\", \"reject: comment\"). Refused unless the server runs with --allow-agent-checkpoints: a person decides in VS Code or the CLI."),
  }),
  output: z.looseObject({
    type: z.enum(['spawn_agent', 'checkpoint', 'exec', 'write_file', 'human_gate', 'done']),
    warning: z.string(),
    display_message: z.string(),
    report_result: reportResultOutput.nullable().describe('What the previous_action_complete report recorded'),
    agent: z.string().optional(),
    prompt: z.string().optional().describe('The 4-layer prompt: agent instructions, artifact paths, repository context, past pipelines'),
    model: z.string().optional(),
    phase: z.string().optional(),
    input_files: z.array(z.string()).optional(),
    output_file: z.string().optional(),
    parallel_task_ids: z.array(z.string()).nullable().optional().describe('When set, start one agent per task id in parallel'),
    name: z.string().optional(),
    present_to_user: z.string().optional(),
    options: z.array(z.string()).optional(),
    commands: z.array(z.string()).optional().describe('Argument array (never a shell string)'),
    setup_only: z.boolean().optional(),
    path: z.string().optional(),
    content: z.string().optional(),
    summary: z.string().optional(),
    summary_path: z.string().nullable().optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, { services }) => services.pipelines.nextAction(args),
});
