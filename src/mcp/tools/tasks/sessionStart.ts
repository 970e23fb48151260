import { sessionStartInput, sessionStartOutput } from '../../../core/sessions/sessionContracts';
import { defineTool } from '../../toolDefinition';

export const sessionStartTool = defineTool({
  name: 'session_start',
  family: 'tasks',
  title: 'Start session',
  description:
    'Start a new session for a task (only for workers run without worker_command). One running session per task and agent unless allowConcurrent; a repeated idempotencyKey returns the first session.',
  input: sessionStartInput,
  output: sessionStartOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, { services }) => services.sessions.start(args),
});
