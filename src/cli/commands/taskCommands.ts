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
import { idArg, idempotencyKeyHelp, numberArg, runToolCommand } from '../toolCommand';
import { withServices } from '../withServices';
import { registerLandCommand } from './landCommand';
import type { Services } from '../../app/services';
import { parseInput } from '../../core/contracts/inputValidation';
import { queueExistingTaskInput, queueNewTaskInput, runClients } from '../../core/runtime/pm/queueContracts';
import type { QueuedTask } from '../../core/runtime/pm/queueContracts';

/** `agent-ledger task …`: one command per task tool of the task-management contract (task_list, task_get, task_create, task_update). */
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
    .description(
      'Create a task, status open (task_create); with --agent, queue it for that agent: in its project, assigned and in progress, so the runner launches it',
    )
    .argument('<title>', 'task title')
    .option('--description <text>', 'what to do and how to know it is done')
    .option('--priority <priority>', `${priorities.join(', ')} (default medium)`)
    .option('--type <type>', `${taskTypes.join(', ')} (default task)`)
    .option('--assignee <name>', 'an agent name (e.g. coder) or a person, without queueing the task')
    .option('--assignee-type <type>', assigneeTypes.join(' or '))
    .option('--labels <labels>', 'comma-separated labels')
    .option('--idempotency-key <key>', `${idempotencyKeyHelp} (not with --agent)`)
    .option('--workflow <id>', 'add it to this workflow, planned and not started (e.g. wf-2)')
    .option(...queueOptions.agent)
    .option(...queueOptions.project)
    .option(...queueOptions.client)
    .option(...queueOptions.model)
    .addHelpText('after', queueHelp)
    .action(
      (
        title: string,
        o: TaskFieldOptions & QueueOptions & { idempotencyKey?: string; workflow?: string },
        cmd: Command,
      ) => {
        if (o.agent !== undefined) {
          refuseWithQueue(o, ['assignee', 'assigneeType', 'workflow']);
          // Queueing remembers no retry key yet: refused rather than ignored, so a retry cannot double it unseen.
          if (o.idempotencyKey !== undefined)
            throw new LedgerError(
              'ValidationError',
              '--idempotency-key is not taken with --agent: queueing remembers no retry key',
            );
          return queueCommand(cmd, (services) =>
            services.queue.queueNew(
              parseInput('task create --agent', queueNewTaskInput, {
                ...queueArgs(o),
                title,
                description: o.description,
                priority: o.priority,
                type: o.type,
                labels: o.labels,
              }),
            ),
          );
        }
        refuseQueueWithoutAgent(o);
        return runToolCommand(cmd, {
          tool: 'task_create',
          args: {
            title,
            description: o.description,
            priority: o.priority,
            type: o.type,
            assignee: o.assignee,
            assigneeType: o.assigneeType,
            labels: o.labels,
            idempotency_key: o.idempotencyKey,
            workflowId: o.workflow,
          },
          format: (t: TaskJson) => [
            `${style.green('created')} ${style.bold(taskKey(t.id))}  ${visible(t.title)}  ${style.dim(`${t.priority} ${t.type}${t.workflowId ? ` · planned in ${String(t.workflowId)}` : ''}`)}`,
          ],
        });
      },
    );

  task
    .command('update')
    .description(
      'Update a task; --status cancelled cancels it, --status open reopens it (task_update); --agent queues it for that agent (in progress, for the runner)',
    )
    .argument('<id>', 'task id (12, task-12 or #12)')
    .option('--title <text>', 'new title')
    .option('--description <text>', 'new description ("" clears it)')
    .option('--priority <priority>', priorities.join(', '))
    .option('--type <type>', taskTypes.join(', '))
    .option('--assignee <name>', 'new assignee ("" unassigns), without queueing the task')
    .option('--assignee-type <type>', assigneeTypes.join(' or '))
    .option('--labels <labels>', 'comma-separated labels ("" clears them)')
    .option('--status <status>', 'open or cancelled')
    .option(...queueOptions.agent)
    .option(...queueOptions.project)
    .option(...queueOptions.client)
    .option(...queueOptions.model)
    .addHelpText('after', queueHelp)
    .action((id: string, o: TaskFieldOptions & QueueOptions & { title?: string; status?: string }, cmd: Command) => {
      if (o.agent !== undefined) {
        refuseWithQueue(o, [
          'title',
          'description',
          'priority',
          'type',
          'assignee',
          'assigneeType',
          'labels',
          'status',
        ]);
        return queueCommand(cmd, (services) =>
          services.queue.queueExisting(
            parseInput('task update --agent', queueExistingTaskInput, { ...queueArgs(o), task_id: idArg(id) }),
          ),
        );
      }
      refuseQueueWithoutAgent(o);
      return runToolCommand(cmd, {
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
      });
    });
  registerLandCommand(task);

  registerHoldCommands(task);
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

/** `task hold <id>` and `task resume <id>`: a person's hold on a task (the runner skips a held task). */
function registerHoldCommands(task: Command): void {
  task
    .command('hold')
    .description('Hold a task: no runner launches its agent until someone resumes it (stopping its run holds it too)')
    .argument('<id>', 'task id (12, task-12 or #12)')
    .action((id: string, _o: unknown, cmd: Command) =>
      withServices(cmd, { readonly: false }, async (services) => {
        const hold = await services.holds.hold(parseId('task', id));
        const key = taskKey(parseId('task', id));
        if (cmd.optsWithGlobals<CommonOptions>().json === true) printJson({ taskId: key, hold });
        else
          printLines([
            `${style.yellow('held')} ${style.bold(key)}  ${style.dim(`by ${visible(hold.by)} · agent-ledger task resume ${key} lets it run`)}`,
          ]);
      }),
    );
  task
    .command('resume')
    .description('Resume a held task: the runner may launch its agent again')
    .argument('<id>', 'task id (12, task-12 or #12)')
    .action((id: string, _o: unknown, cmd: Command) =>
      withServices(cmd, { readonly: false }, async (services) => {
        const resumed = await services.holds.resume(parseId('task', id));
        if (cmd.optsWithGlobals<CommonOptions>().json === true) printJson(resumed);
        else
          printLines([
            `${style.green('resumed')} ${style.bold(resumed.taskId)}  ${style.dim(`by ${visible(resumed.resumedBy)} (held by ${visible(resumed.heldBy)})`)}`,
          ]);
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

interface QueueOptions {
  agent?: string;
  project?: string;
  client?: string;
  model?: string;
}

const queueOptions = {
  agent: ['--agent <name>', 'queue the task for this agent (e.g. coder): in its project, assigned and in progress'],
  project: [
    '--project <project>',
    'with --agent: the project (id or name) to run it in; default: the agent’s only project, or the workspace’s own',
  ],
  client: ['--client <client>', `with --agent: run it with ${runClients.join(', ')} instead of the agent’s own client`],
  model: ['--model <model>', 'with --agent: the model to run it with (default: the agent’s, or the client’s own)'],
} as const satisfies Record<string, readonly [string, string]>;

const queueHelp = `
Queue a task for an agent, and let the runner launch it in the task's own Git worktree:
  $ agent-ledger task create "Fix the parser" --agent coder
  $ agent-ledger task create "Fix the parser" --agent coder --client codex
  $ agent-ledger runner`;

function queueArgs(o: QueueOptions): Record<string, unknown> {
  return {
    agent: o.agent,
    project: idArg(o.project),
    client: o.client,
    model: o.model,
  };
}

/** --agent queues the task: the options that set an assignee or other fields belong to a plain create or update. */
function refuseWithQueue<T extends object>(o: T, fields: ReadonlyArray<keyof T & string>): void {
  const given = fields.filter((f) => o[f] !== undefined);
  if (given.length > 0)
    throw new LedgerError(
      'ValidationError',
      `--agent queues the task for the agent; ${given.map((f) => `--${f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')} ${given.length > 1 ? 'go' : 'goes'} in a separate task update`,
    );
}

function refuseQueueWithoutAgent(o: QueueOptions): void {
  const given = (['project', 'client', 'model'] as const).filter((f) => o[f] !== undefined);
  if (given.length > 0)
    throw new LedgerError(
      'ValidationError',
      `${given.map((f) => `--${f}`).join(', ')} ${given.length > 1 ? 'say' : 'says'} how to run the task: add --agent <name> to queue it`,
    );
}

/** Queues a task (a person's write, no tool) and says where it went. */
function queueCommand(cmd: Command, queue: (services: Services) => Promise<QueuedTask>): Promise<void> {
  const json = cmd.optsWithGlobals<CommonOptions>().json === true;
  return withServices(cmd, { readonly: false }, async (services) => {
    const q = await queue(services);
    if (json) printJson(q);
    else printLines(queuedLines(q));
  });
}

function queuedLines(q: QueuedTask): string[] {
  const lines: string[] = [];
  if (q.project_created)
    lines.push(
      `${style.green('created')} project ${style.bold(visible(q.project_name))} (${q.project_id}, the whole workspace: ${visible(q.working_directory)}) and added ${visible(q.agent_id)} to it`,
    );
  else if (q.agent_added)
    lines.push(`${style.green('added')} ${visible(q.agent_id)} to project ${visible(q.project_name)}`);
  lines.push(
    `${style.green('queued')} ${style.bold(q.task_id)}  ${visible(q.title)}  ${style.dim(`for ${visible(q.agent_id)} in ${visible(q.project_name)} · ${visible(q.client)}${q.model ? ` (${visible(q.model)})` : ''}`)}`,
    style.dim(`  the runner launches it in the task’s own worktree: agent-ledger runner`),
  );
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
