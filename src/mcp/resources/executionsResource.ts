import type { ResourceTemplateDefinition } from './resourceDefinition';
import { schemeMatcher } from './resourceDefinition';
import { perTaskUris } from './contextResource';

/** `executions://{taskId}`: every run of a task, newest first. */
export const executionsResource: ResourceTemplateDefinition = {
  name: 'executions',
  uriTemplate: 'executions://{taskId}',
  title: 'Task executions',
  description: 'Every run of agents on a task, newest first',
  mimeType: 'application/json',
  match: schemeMatcher('executions'),
  list: () => [],
  read: async ({ executions }, taskId) => JSON.stringify(await executions.ofTask(taskId), null, 2),
  affected: (e) => (e.entity === 'execution' ? perTaskUris('executions', e.taskId) : []),
  changesList: () => false,
};
