import { sessionListInput, sessionListOutput } from '../../../core/sessions/sessionContracts';
import { defineTool } from '../../toolDefinition';

export const sessionListTool = defineTool({
  name: 'session_list',
  family: 'tasks',
  title: 'List sessions',
  description: 'List sessions, newest first; filter by task, status (running, completed, failed) and agent.',
  input: sessionListInput,
  output: sessionListOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => services.sessions.list(args),
});
