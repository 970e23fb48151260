import type { Task } from '../tasks/taskModel';
import { taskKey, workflowKey } from '../ids';
import type { Workflow } from './workflowModel';

/** The JSON shape of a workflow outside the process: the `workflow://{id}` resource and the CLI's `--json`. */
export function workflowView(workflow: Workflow, tasks: Task[]): Record<string, unknown> {
  return {
    id: workflowKey(workflow.id),
    name: workflow.name,
    description: workflow.description,
    plan: workflow.plan,
    kind: workflow.kind,
    status: workflowStatus(tasks),
    createdAt: workflow.createdAt,
    updatedAt: workflow.updatedAt,
    tasks: tasks.map((t) => ({
      id: t.id,
      key: taskKey(t.id),
      parentTaskId: t.parentId === null ? null : taskKey(t.parentId),
      title: t.title,
      status: t.status,
      result: t.result,
      progress: t.progress,
      durationSeconds: t.durationSeconds,
      assigneeName: t.assignee,
    })),
  };
}

/** A workflow has no state of its own: it is running while one of its tasks is. */
export function workflowStatus(tasks: Pick<Task, 'status'>[]): 'empty' | 'running' | 'failed' | 'done' | 'open' {
  if (tasks.length === 0) return 'empty';
  if (tasks.some((t) => t.status === 'in_progress')) return 'running';
  if (tasks.some((t) => t.status === 'open')) return 'open';
  if (tasks.some((t) => t.status === 'failed')) return 'failed';
  return 'done';
}
