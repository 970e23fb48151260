import { getExecutionLogInput, getExecutionLogOutput } from '../../../../core/runtime/pm/runtimeContracts';
import { defineTool } from '../../../toolDefinition';

export const getExecutionLogTool = defineTool({
  name: 'get_execution_log',
  family: 'pm',
  title: 'Get execution log',
  description:
    'One run of an agent: status, result, exit code or signal, duration, tokens, cost, summary and the path of its output log.',
  input: getExecutionLogInput,
  output: getExecutionLogOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => ({
    success: true as const,
    log: await services.executions.get(args.execution_id),
  }),
});
