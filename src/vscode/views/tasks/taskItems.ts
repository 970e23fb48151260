import * as vscode from 'vscode';
import type { Task } from '../../../core/tasks/taskModel';
import { taskKey, workflowKey } from '../../../core/ids';
import type { WorkflowSummary } from '../../../core/workflows/workflowRepo';
import { formatAge, plural, truncate } from '../../../core/format';
import { statusText, taskDescription } from '../../../views/taskText';
import { Commands } from '../../commands/commandIds';
import type { FolderLedger } from '../../ledger/folderLedger';
import { priorityIcons, typeIcons } from './taskFields';

export interface WorkflowNode {
  readonly kind: 'workflow';
  readonly ledger: FolderLedger;
  readonly workflow: WorkflowSummary;
}

/** Tasks that belong to no workflow (task_create, `agent-ledger task create`). */
export interface LooseTasksNode {
  readonly kind: 'loose';
  readonly ledger: FolderLedger;
  readonly count: number;
}

export interface TaskNode {
  readonly kind: 'task';
  readonly ledger: FolderLedger;
  readonly task: Task;
  readonly childCount: number;
  /** A person answered the completion's review request. */
  readonly completionReviewed?: boolean;
  /** Its last rewind can be undone (Undo Rewind is offered, the row says "rewound"). */
  readonly rewound?: boolean;
  readonly parent: WorkflowNode | LooseTasksNode | TaskNode;
}

export type TasksNode = WorkflowNode | LooseTasksNode | TaskNode;

/**
 * The codicon and colour of a task's state; a task not started yet is coloured by its priority when
 * that is high or critical. Static: a ledger state is not a process (the Agents view spins for a
 * running agent); a held task shows a pause.
 */
export function taskIcon(
  task: Pick<Task, 'status' | 'result'> & Partial<Pick<Task, 'priority' | 'hold'>>,
): vscode.ThemeIcon {
  if (task.hold && (task.status === 'in_progress' || task.status === 'open'))
    return new vscode.ThemeIcon('debug-pause', new vscode.ThemeColor('list.warningForeground'));
  switch (task.status) {
    case 'in_progress':
      return new vscode.ThemeIcon('circle-filled', new vscode.ThemeColor('charts.blue'));
    case 'open':
      return new vscode.ThemeIcon(
        'circle-large-outline',
        task.priority === 'critical'
          ? new vscode.ThemeColor('charts.red')
          : task.priority === 'high'
            ? new vscode.ThemeColor('charts.orange')
            : undefined,
      );
    case 'cancelled':
      return new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('disabledForeground'));
    case 'failed':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
    case 'done':
      return task.result === 'partial_success'
        ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
        : task.result === 'failed'
          ? new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'))
          : new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
  }
}

export function taskItem(node: TaskNode): vscode.TreeItem {
  const { task } = node;
  const item = new vscode.TreeItem(
    task.title,
    node.childCount > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
  );
  item.id = `${node.ledger.folder.uri.toString()}#task-${task.id}`;
  item.description = taskDescription(task, Date.now(), {
    completionReviewed: node.completionReviewed,
    rewound: node.rewound,
  });
  item.iconPath = node.rewound
    ? new vscode.ThemeIcon('history', new vscode.ThemeColor('charts.purple'))
    : taskIcon(task);
  item.tooltip = taskTooltip(task, node.completionReviewed === true, node.rewound === true);
  item.accessibilityInformation = {
    label: `${task.title}, ${taskKey(task.id)}, ${statusText(task)}${task.progress !== null && task.status === 'in_progress' ? `, ${task.progress}%` : ''}, ${task.priority} priority ${task.type}`,
  };
  // Menus in package.json match these words (`viewItem =~ /\brewind\b/`).
  const flags = ['task', task.status];
  if (task.snapshot?.type === 'git' && !task.worktree) flags.push('rewind');
  if (node.rewound) flags.push('rewound');
  if (task.hold) flags.push('held');
  if (task.outcome?.manual_review_needed && task.status === 'done' && !node.completionReviewed) flags.push('review');
  item.contextValue = flags.join(' ');
  item.command = { command: Commands.OpenTask, title: 'Open Task', arguments: [node] };
  return item;
}

function taskTooltip(task: Task, completionReviewed: boolean, rewound: boolean): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${escape(task.title)}** — \`${taskKey(task.id)}\` · ${statusText(task)}\n\n`);
  if (task.goal) md.appendMarkdown(`${escape(truncate(task.goal, 300))}\n\n`);
  if (task.description && task.description !== task.goal)
    md.appendMarkdown(`${escape(truncate(task.description, 300))}\n\n`);
  md.appendMarkdown(`${taskFieldsLine(task)}\n\n`);
  if (task.areas.length) md.appendMarkdown(`$(folder) ${task.areas.map((a) => `\`${a}\``).join(' ')}\n\n`);
  if (task.lastMilestone && task.status === 'in_progress')
    md.appendMarkdown(
      `$(milestone) ${escape(truncate(task.lastMilestone, 200))}${task.progress !== null ? ` (${task.progress}%)` : ''}\n\n`,
    );
  if (task.hold)
    md.appendMarkdown(
      `$(debug-pause) held: stopped by ${escape(task.hold.by)} — Resume Task lets the runner launch it\n\n`,
    );
  else if (task.waiting && task.status === 'in_progress')
    md.appendMarkdown(`$(watch) waiting: ${escape(truncate(task.waiting.detail, 300))}\n\n`);
  if (task.outcome) md.appendMarkdown(`$(note) ${escape(truncate(task.outcome.summary, 300))}\n\n`);
  if (task.outcome?.manual_review_needed) {
    const reason = task.outcome.manual_review_reason ? `: ${escape(task.outcome.manual_review_reason)}` : '';
    md.appendMarkdown(
      completionReviewed
        ? `$(check) Reviewed by a person (review asked${reason})\n\n`
        : `$(eye) Manual review needed${reason}\n\n`,
    );
  }
  if (rewound) md.appendMarkdown('$(history) Rewound to its snapshot: Undo Rewind puts its changes back\n\n');
  for (const w of task.verification?.warnings ?? []) md.appendMarkdown(`${escape(w)}\n\n`);
  if (task.filesChanged) {
    const f = task.filesChanged;
    md.appendMarkdown(
      `$(diff) ${f.added.length} added · ${f.modified.length} modified · ${f.deleted.length} deleted${f.renamed.length ? ` · ${f.renamed.length} renamed` : ''}\n\n`,
    );
  }
  md.appendMarkdown(`_Updated ${formatAge(task.updatedAt)}_`);
  return md;
}

/** `$(arrow-up) high priority · $(bug) bug · $(hubot) coder (AI agent) · $(tag) auth, backend` */
function taskFieldsLine(task: Task): string {
  const parts = [
    `$(${priorityIcons[task.priority]}) ${task.priority} priority`,
    `$(${typeIcons[task.type]}) ${task.type}`,
  ];
  parts.push(
    task.assignee
      ? `$(${task.assigneeType === 'human' ? 'person' : 'hubot'}) ${escape(task.assignee)}${task.assigneeType ? ` (${task.assigneeType === 'ai' ? 'AI agent' : 'person'})` : ''}`
      : '$(person) unassigned',
  );
  if (task.labels.length) parts.push(`$(tag) ${task.labels.map(escape).join(', ')}`);
  return parts.join(' · ');
}

export function workflowItem(node: WorkflowNode): vscode.TreeItem {
  const w = node.workflow;
  const item = new vscode.TreeItem(
    w.name,
    w.running > 0 || w.taskCount === 0
      ? vscode.TreeItemCollapsibleState.Expanded
      : vscode.TreeItemCollapsibleState.Collapsed,
  );
  item.id = `${node.ledger.folder.uri.toString()}#wf-${w.id}`;
  const parts = [workflowKey(w.id)];
  if (w.running) parts.push(`${w.running} running`);
  if (w.taskCount) parts.push(`${w.done}/${w.taskCount} done`);
  if (w.failed) parts.push(`${w.failed} failed`);
  if (w.kind !== 'workflow') parts.push(w.kind);
  item.description = parts.join(' · ');
  item.iconPath =
    w.running > 0
      ? new vscode.ThemeIcon('sync~spin', new vscode.ThemeColor('charts.blue'))
      : w.failed > 0
        ? new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'))
        : w.taskCount > 0 && w.done === w.taskCount
          ? new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'))
          : new vscode.ThemeIcon('checklist');
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${escape(w.name)}** — \`${workflowKey(w.id)}\`\n\n`);
  if (w.description) md.appendMarkdown(`${escape(truncate(w.description, 300))}\n\n`);
  w.plan.forEach((p, i) => md.appendMarkdown(`${i + 1}. **${escape(p.step)}** — ${escape(truncate(p.goal, 120))}\n`));
  md.appendMarkdown(
    `\n\n${plural(w.taskCount, 'task')} · ${w.running} running · ${w.done} done · ${w.failed} failed · _updated ${formatAge(w.updatedAt)}_`,
  );
  item.tooltip = md;
  item.contextValue = 'workflow';
  item.accessibilityInformation = { label: `${w.name}, workflow ${workflowKey(w.id)}, ${item.description}` };
  return item;
}

export function looseTasksItem(node: LooseTasksNode): vscode.TreeItem {
  const item = new vscode.TreeItem('Tasks without a workflow', vscode.TreeItemCollapsibleState.Expanded);
  item.id = `${node.ledger.folder.uri.toString()}#loose`;
  item.description = `${node.count}`;
  item.iconPath = new vscode.ThemeIcon('inbox');
  item.tooltip =
    'Tasks created on their own (Create Task, `agent-ledger task create`, or by an agent) that no workflow has started yet.';
  item.contextValue = 'looseTasks';
  return item;
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>$]/g, '\\$&');
}
