import type { ResourceTemplateDefinition } from './resourceDefinition';
import { schemeMatcher } from './resourceDefinition';

/** `task://{id}`: a task with its timeline (the task-management contract's format plus the tracking fields). */
export const taskResource: ResourceTemplateDefinition = {
  name: 'task',
  uriTemplate: 'task://{id}',
  title: 'Task',
  description: 'A task: status, goal, areas, snapshot, outcome, files changed, decisions, issues, milestones, dependencies (what it depends on in its workflow plan graph, what depends on it, whether it is ready) and cost (runs, dollars and tokens its agents reported), as task_get answers',
  mimeType: 'application/json',
  match: schemeMatcher('task'),
  list: async ({ queries }) =>
    (await queries.listTasks({ limit: 100 })).tasks.map((t) => ({
      uri: `task://${t.id}`,
      name: `Task #${t.id}`,
      title: t.title,
      description: `Task details for #${t.id} (${t.status})`,
      mimeType: 'application/json',
    })),
  // What task_get answers (with the dependencies in its workflow's plan graph and the cost of its runs), in one read.
  read: async ({ tasks }, id) => JSON.stringify(await tasks.answer(id), null, 2),
  affected: (e) => (e.taskId === null ? [] : [`task://${e.taskId}`]),
  changesList: (e) => e.kind === 'task.started' || e.kind === 'task.created' || e.kind === 'task.deleted',
};
