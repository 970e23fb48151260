import { z } from 'zod';
import { sessionStartInput } from '../../../core/sessions/sessionContracts';
import { defineTool } from '../../toolDefinition';

export const sessionStartTool = defineTool({
  name: 'session_start',
  family: 'tasks',
  title: 'Start session',
  description: 'Start a new session for a task (only for workers run without worker_command). One running session per task and agent unless allowConcurrent; a repeated idempotencyKey returns the first session.',
  input: sessionStartInput,
  output: z.object({
    sessionId: z.number(),
    startedAt: z.string(),
    taskId: z.number(),
    agent: z.string(),
    replayed: z.boolean().describe('True when idempotencyKey matched an earlier call: nothing new was started'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, { services }) => services.sessions.start(args),
});
