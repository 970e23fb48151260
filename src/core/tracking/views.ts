import type { Task, TimelineEntry, Workflow } from '../model';
import { taskKey, workflowKey } from '../ids';
import type { TimelineCounts } from '../tasks/timelineRepo';

/**
 * The JSON shapes a task and a workflow have outside the process: the `task://{id}` and
 * `workflow://{id}` resources and the CLI's `--json`. A task keeps seed 002's resource
 * fields (numeric `id`, `title`, `status`, `priority`, `type`, `assigneeType`, `assigneeName`,
 * `createdAt`, `updatedAt`) and adds the tracking fields of seed 000.
 */
export function taskView(task: Task): Record<string, unknown> {
  return {
    id: task.id,
    key: taskKey(task.id),
    title: task.title,
    description: task.description,
    status: task.status,
    priority: task.priority,
    type: task.type,
    labels: task.labels,
    assigneeType: task.assigneeType,
    assigneeName: task.assignee,
    selectedSessionId: task.selectedSessionId,
    worktree: task.worktree,
    workflowId: task.workflowId === null ? null : workflowKey(task.workflowId),
    parentTaskId: task.parentId === null ? null : taskKey(task.parentId),
    goal: task.goal,
    areas: task.areas,
    progress: task.progress,
    lastMilestone: task.lastMilestone,
    snapshot: task.snapshot ? { type: task.snapshot.type, id: task.snapshot.id, head: task.snapshot.head } : null,
    endSnapshotId: task.endSnapshotId,
    result: task.result,
    startedAt: task.startedAt,
    completedAt: task.completedAt,
    durationSeconds: task.durationSeconds,
    outcome: task.outcome,
    metadata: task.metadata,
    filesChanged: task.filesChanged,
    repositoryRoot: task.repositoryRoot,
    workspacePath: task.workspacePath,
    verification: task.verification,
    commits: task.commits,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
  };
}

export function taskDetailView(task: Task, timeline: TimelineEntry[], children: Task[], counts: TimelineCounts): Record<string, unknown> {
  return {
    ...taskView(task),
    counts,
    subTasks: children.map((c) => ({ id: c.id, key: taskKey(c.id), title: c.title, status: c.status, result: c.result })),
    timeline,
  };
}

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
