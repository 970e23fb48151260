import { sessionEndInput, sessionOutput } from '../../../core/sessions/sessionContracts';
import { defineTool } from '../../toolDefinition';

export const sessionEndTool = defineTool({
  name: 'session_end',
  family: 'tasks',
  title: 'End session',
  description:
    'End a session with the worker’s exit code, signal, Definition of Done result, artifacts and error. When it was the task’s last running session: dodResult "merged" marks the task done, a failure marks it failed.',
  input: sessionEndInput,
  output: sessionOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, { services }) => services.sessions.end(args),
});
