import { z } from 'zod';
import { sessionListInput } from '../../../core/sessions/sessionContracts';
import { defineTool } from '../../toolDefinition';
import { sessionOutput } from './outputs';

export const sessionListTool = defineTool({
  name: 'session_list',
  family: 'tasks',
  title: 'List sessions',
  description: 'List sessions, newest first; filter by task, status (running, completed, failed) and agent.',
  input: sessionListInput,
  output: z.object({ sessions: z.array(sessionOutput), total: z.number(), nextOffset: z.number().nullable() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => services.sessions.list(args),
});
