import { healthCheckInput, healthCheckOutput } from '../../../../core/runtime/pm/runtimeContracts';
import { version } from '../../../../app/version';
import { defineTool } from '../../../toolDefinition';

export const healthCheckTool = defineTool({
  name: 'health_check',
  family: 'pm',
  audience: 'runner',
  title: 'Health check',
  description:
    'Runner API: whether this server answers, its version, its time and its store engine. The runner calls it first on every poll.',
  input: healthCheckInput,
  output: healthCheckOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (_args, { services }) => ({
    status: 'ok' as const,
    version,
    timestamp: new Date().toISOString(),
    store: services.engine.kind,
  }),
});
