import type { Task, TimelineEntry } from './taskModel';
import { taskKey, workflowKey } from '../ids';
import type { TimelineCounts } from './timelineRepo';

/**
 * The JSON shape a task has outside the process: the `task://{id}` resource, task_get and the
 * CLI's `--json`. A task keeps the task-management contract's resource
 * fields (numeric `id`, `title`, `status`, `priority`, `type`, `assigneeType`, `assigneeName`,
 * `createdAt`, `updatedAt`) and adds the tracking contract's fields.
 */
export function taskView(task: Task) {
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
    machineId: task.machineId,
    osUser: task.osUser,
    workspacePath: task.workspacePath,
    verification: task.verification,
    commits: task.commits,
    hold: task.hold,
    waiting: task.waiting,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
  };
}

export function taskDetailView(task: Task, timeline: TimelineEntry[], children: Task[], counts: TimelineCounts) {
  return {
    ...taskView(task),
    counts,
    subTasks: children.map((c) => ({
      id: c.id,
      key: taskKey(c.id),
      title: c.title,
      status: c.status,
      result: c.result,
    })),
    timeline,
  };
}

/** A task's JSON as `taskView` builds it. */
export type TaskView = ReturnType<typeof taskView>;
/** A task's JSON with its counts, sub-tasks and timeline, as `taskDetailView` builds it. */
export type TaskDetailView = ReturnType<typeof taskDetailView>;
