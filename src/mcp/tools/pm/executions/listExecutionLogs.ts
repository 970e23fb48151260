import { listExecutionLogsInput, listExecutionLogsOutput } from '../../../../core/runtime/pm/runtimeContracts';
import { defineTool } from '../../../toolDefinition';

export const listExecutionLogsTool = defineTool({
  name: 'list_execution_logs',
  family: 'pm',
  title: 'List execution logs',
  description:
    'Runs of agents, newest first, optionally of one task or one agent: status, result, exit code or signal, duration, tokens and cost.',
  input: listExecutionLogsInput,
  output: listExecutionLogsOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => ({
    success: true as const,
    logs: await services.executions.list({ taskRef: args.task_id, agent: args.agent_id, limit: args.limit }),
  }),
});
