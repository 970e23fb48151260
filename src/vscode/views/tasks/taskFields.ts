import type { Priority, TaskType } from '../../../core/tasks/taskModel';

/** Codicons of the task-management contract's task fields, shared by the Tasks view and the Create/Edit Task forms. */
export const priorityIcons: Record<Priority, string> = {
  low: 'arrow-down',
  medium: 'dash',
  high: 'arrow-up',
  critical: 'flame',
};
export const typeIcons: Record<TaskType, string> = {
  task: 'tasklist',
  feature: 'sparkle',
  bug: 'bug',
  refactor: 'wrench',
};

/** What the fields say in a form's pick list. */
export const priorityHints: Record<Priority, string> = {
  low: 'when there is time',
  medium: 'the default',
  high: 'soon',
  critical: 'before anything else',
};
export const typeHints: Record<TaskType, string> = {
  task: 'the default',
  feature: 'something new',
  bug: 'something broken',
  refactor: 'same behaviour, better code',
};
