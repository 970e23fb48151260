import type { ResourceTemplateDefinition } from './resourceDefinition';
import { schemeMatcher } from './resourceDefinition';
import { perTaskUris } from './contextResource';

/** `handoff://{taskId}`: the latest handoff of a task, with the earlier ones. */
export const handoffResource: ResourceTemplateDefinition = {
  name: 'handoff',
  uriTemplate: 'handoff://{taskId}',
  title: 'Task handoff',
  description: 'The latest handoff of a task (and the earlier ones, newest first)',
  mimeType: 'application/json',
  match: schemeMatcher('handoff'),
  list: () => [],
  read: async ({ handoffs }, taskId) => JSON.stringify(await handoffs.ofTask(taskId), null, 2),
  affected: (e) => (e.entity === 'handoff' ? perTaskUris('handoff', e.taskId) : []),
  changesList: () => false,
};
