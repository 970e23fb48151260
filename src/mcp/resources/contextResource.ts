import type { ResourceTemplateDefinition } from './resourceDefinition';
import { schemeMatcher } from './resourceDefinition';

/** The URIs a task's per-task resource may be subscribed under: `<scheme>://5` and `<scheme>://task-5`. */
export function perTaskUris(scheme: string, taskId: number | null): string[] {
  return taskId === null ? [] : [`${scheme}://${taskId}`, `${scheme}://task-${taskId}`];
}

/** `context://{taskId}`: the saved contexts of a task (latest and history). */
export const contextResource: ResourceTemplateDefinition = {
  name: 'context',
  uriTemplate: 'context://{taskId}',
  title: 'Task context',
  description: 'What agents saved about a task with save_context: the latest context and every earlier one',
  mimeType: 'application/json',
  match: schemeMatcher('context'),
  list: () => [],
  read: async ({ handoffs }, taskId) => JSON.stringify(await handoffs.taskContext(taskId, true), null, 2),
  affected: (e) => (e.kind === 'context.saved' ? perTaskUris('context', e.taskId) : []),
  changesList: () => false,
};
