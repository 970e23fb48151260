import type { Command } from 'commander';
import type { TaskJson, TaskListResult } from '../../core/tasks/taskContracts';
import type { TaskAnswer } from '../../core/tasks/taskAnswer';
import { parseId, taskKey } from '../../core/ids';
import { LedgerError } from '../../core/errors';
import type { ReviewRecord } from '../../core/tasks/taskReviews';
import { assigneeTypes, priorities, taskStatuses, taskTypes } from '../../core/tasks/taskModel';
import type { CommonOptions } from '../output';
import { printJson, printLines, style, table } from '../output';
import { visible } from '../terminalText';
import { formatTaskDetail, statusMark } from './taskFormat';
import { idArg, numberArg, runToolCommand } from '../toolCommand';
import { withServices } from '../withServices';
import { registerLandCommand } from './landCommand';

/** `agent-ledger task …`: one command per seed 002 task tool (task_list, task_get, task_create, task_update). */
export function registerTaskCommands(task: Command): void {
  task
    .command('list')
    .description('List tasks, newest first (task_list)')
    .option('--status <status>', `only tasks in this state (${taskStatuses.join(', ')})`)
    .option('--assignee <name>', 'only tasks assigned to this name')
    .option('--workflow <id>', 'only tasks of this workflow (wf-3 or 3)')
    .option('--limit <n>', 'how many to show (default 20)')
    .option('--offset <n>', 'how many to skip (the nextOffset of the previous page)')
    .action(
      (o: { status?: string; assignee?: string; workflow?: string; limit?: string; offset?: string }, cmd: Command) =>
        runToolCommand(cmd, {
          tool: 'task_list',
          args: {
            status: o.status,
            assignee: o.assignee,
            workflowId: idArg(o.workflow),
            limit: numberArg(o.limit),
            offset: numberArg(o.offset),
          },
          format: formatTaskList,
        }),
    );

  task
    .command('get')
    .alias('show')
    .description(
      'Show a task: fields, goal, cost of its agent runs, outcome, files changed, commits and timeline (task_get)',
    )
    .argument('<id>', 'task id (12, task-12 or #12)')
    .action((id: string, _o: unknown, cmd: Command) =>
      runToolCommand(cmd, {
        tool: 'task_get',
        args: { id: idArg(id) },
        format: (t: TaskAnswer) => formatTaskDetail(t),
      }),
    );

  task
    .command('create')
    .alias('add')
    .description('Create a task, status open (task_create)')
    .argument('<title>', 'task title')
    .option('--description <text>', 'what to do and how to know it is done')
    .option('--priority <priority>', `${priorities.join(', ')} (default medium)`)
    .option('--type <type>', `${taskTypes.join(', ')} (default task)`)
    .option('--assignee <name>', 'an agent name (e.g. coder) or a person')
    .option('--assignee-type <type>', assigneeTypes.join(' or '))
    .option('--labels <labels>', 'comma-separated labels')
    .action((title: string, o: TaskFieldOptions, cmd: Command) =>
      runToolCommand(cmd, {
        tool: 'task_create',
        args: {
          title,
          description: o.description,
          priority: o.priority,
          type: o.type,
          assignee: o.assignee,
          assigneeType: o.assigneeType,
          labels: o.labels,
        },
        format: (t: TaskJson) => [
          `${style.green('created')} ${style.bold(taskKey(t.id))}  ${visible(t.title)}  ${style.dim(`${t.priority} ${t.type}`)}`,
        ],
      }),
    );

  task
    .command('update')
    .description('Update a task; --status cancelled cancels it, --status open reopens it (task_update)')
    .argument('<id>', 'task id (12, task-12 or #12)')
    .option('--title <text>', 'new title')
    .option('--description <text>', 'new description ("" clears it)')
    .option('--priority <priority>', priorities.join(', '))
    .option('--type <type>', taskTypes.join(', '))
    .option('--assignee <name>', 'new assignee ("" unassigns)')
    .option('--assignee-type <type>', assigneeTypes.join(' or '))
    .option('--labels <labels>', 'comma-separated labels ("" clears them)')
    .option('--status <status>', 'open or cancelled')
    .action((id: string, o: TaskFieldOptions & { title?: string; status?: string }, cmd: Command) =>
      runToolCommand(cmd, {
        tool: 'task_update',
        args: {
          id: idArg(id),
          title: o.title,
          description: o.description,
          priority: o.priority,
          type: o.type,
          assignee: o.assignee,
          assigneeType: o.assigneeType,
          labels: o.labels,
          status: o.status,
        },
        format: (t: TaskJson) => [
          `${style.green('updated')} ${style.bold(taskKey(t.id))}  ${visible(t.title)}  ${style.dim(`${t.status} · ${t.priority} ${t.type}${t.assigneeName ? ` · ${visible(t.assigneeName)}` : ''}`)}`,
        ],
      }),
    );
  registerLandCommand(task);

  task
    .command('review')
    .description(
      'A person answers a task\'s review requests (issues logged for review, a completion asking for manual review): the task leaves the Board\'s "Needs a person" column',
    )
    .argument('<id>', 'task id (12, task-12 or #12)')
    .option('--approve', 'the work was checked and stands')
    .option('--dismiss', 'the request needs nothing')
    .option('--note <text>', 'why, kept with the review')
    .action((id: string, o: { approve?: boolean; dismiss?: boolean; note?: string }, cmd: Command) =>
      withServices(cmd, { readonly: false }, async (services) => {
        if (o.approve === o.dismiss)
          throw new LedgerError('ValidationError', 'say --approve or --dismiss (exactly one)');
        const record = await services.reviews.review({
          taskId: parseId('task', id),
          verdict: o.approve ? 'approved' : 'dismissed',
          note: o.note,
        });
        if (cmd.optsWithGlobals<CommonOptions>().json === true) printJson(record);
        else printLines(formatReview(record));
      }),
    );
}

function formatReview(r: ReviewRecord): string[] {
  const what = [
    ...r.answered.issues.map((i) => `issue #${i}`),
    ...(r.answered.completion ? ['the completion'] : []),
  ].join(', ');
  const lines = [
    `${style.green(r.verdict)} ${style.bold(r.taskId)}  ${style.dim(`by ${visible(r.reviewedBy)} · answered ${what}`)}`,
  ];
  if (r.note) lines.push(`  ${visible(r.note)}`);
  return lines;
}

interface TaskFieldOptions {
  description?: string;
  priority?: string;
  type?: string;
  assignee?: string;
  assigneeType?: string;
  labels?: string;
}

function formatTaskList({ tasks, total, nextOffset }: TaskListResult): string[] {
  if (tasks.length === 0) return [total ? 'No tasks on this page.' : 'No tasks match.'];
  const rows = [
    [
      '',
      style.dim('ID'),
      style.dim('STATUS'),
      style.dim('PRIORITY'),
      style.dim('TYPE'),
      style.dim('ASSIGNEE'),
      style.dim('TITLE'),
    ],
  ];
  for (const t of tasks) {
    const labels = t.labels.length ? style.dim(` [${t.labels.map(visible).join(', ')}]`) : '';
    rows.push([
      statusMark({ status: t.status, result: null }),
      style.bold(taskKey(t.id)),
      t.status,
      t.priority,
      t.type,
      visible(t.assignee ?? '-'),
      `${visible(t.title)}${labels}`,
    ]);
  }
  const lines = table(rows);
  if (nextOffset !== null) lines.push(style.dim(`… ${total - nextOffset} more (--offset ${nextOffset})`));
  return lines;
}
