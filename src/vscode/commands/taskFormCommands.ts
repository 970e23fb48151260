import * as vscode from 'vscode';
import { taskKey } from '../../core/ids';
import { parseInput } from '../../core/contracts/inputValidation';
import { priorities, taskTypes } from '../../core/tasks/taskModel';
import type { AssigneeType, Priority, TaskType } from '../../core/tasks/taskModel';
import type { TaskJson } from '../../core/tasks/taskContracts';
import type { Services } from '../../app/services';
import { truncate } from '../../core/format';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';
import { loadDomain } from '../ledger/loadDomain';
import { priorityHints, priorityIcons, typeHints, typeIcons } from '../views/tasks/taskFields';
import { Commands } from './commandIds';
import { askChoice, askText, optionalText, schemaCheck } from './prompts';
import type { Choice, Step } from './prompts';
import { resolveTask } from './targets';
import type { TaskArg } from './targets';
import { writableLedger } from './writableLedger';

type Field = 'title' | 'description' | 'priority' | 'type' | 'assignee' | 'labels';

interface Assignment {
  assignee?: string;
  assigneeType?: AssigneeType;
}

/**
 * Create Task and Edit Task: the task-management contract's task_create and task_update from the palette (and the
 * Tasks view), one question per field. Each answer is checked with the tools' own zod schemas as
 * it is typed, and the whole input once more by parseInput before the same TaskService call the
 * MCP tool and the CLI make — the same refusals, in the same words.
 */
export class TaskFormCommands {
  constructor(private readonly registry: LedgerRegistry) {}

  async createTask(arg?: { folder?: string }): Promise<TaskJson | undefined> {
    const target = await writableLedger(this.registry, arg?.folder, 'Create the task in which folder?');
    if (!target) return undefined;
    const { services } = target;
    const schema = loadDomain().taskCreateInput;
    const step = (n: number): Step => ({ title: 'Create Task', step: n, totalSteps: 6 });
    const title = await askText(step(1), {
      prompt: 'Title of the task',
      placeholder: 'e.g. Fix the login redirect',
      validate: schemaCheck(schema, 'title'),
    });
    const description = optionalText(
      await askText(step(2), {
        prompt: 'Description (optional): what to do and how to know it is done',
        validate: schemaCheck(schema, 'description', optionalText),
      }),
    );
    const priority = await askChoice(step(3), priorityChoices(), { placeholder: 'Priority', active: 'medium' });
    const type = await askChoice(step(4), typeChoices(), { placeholder: 'Kind of task', active: 'task' });
    const assignment = await this.askAssignee(step(5), services, schema, undefined);
    const labels = optionalText(
      await askText(step(6), {
        prompt: 'Labels (optional), comma-separated',
        placeholder: 'e.g. auth, backend',
        validate: schemaCheck(schema, 'labels', optionalText),
      }),
    );
    const input = parseInput('task_create', schema, { title, description, priority, type, ...assignment, labels });
    const task = await services.tasks.create(input);
    void vscode.window
      .showInformationMessage(`Created ${taskKey(task.id)} "${truncate(task.title, 80)}".`, 'Open Task')
      .then((open) => {
        if (open)
          void vscode.commands.executeCommand(Commands.OpenTask, { folder: target.ledger.root, taskId: task.id });
      });
    return task;
  }

  /** One field per run: pick it (each shows its current value), answer, saved. */
  async editTask(arg: TaskArg): Promise<TaskJson | undefined> {
    const target = await resolveTask(this.registry, arg, 'Edit which task?');
    if (!target) return undefined;
    const services = await target.ledger.require();
    const schema = loadDomain().taskUpdateInput;
    const task = await services.tasks.get(target.taskId);
    const key = taskKey(task.id);
    const step = (n: number): Step => ({ title: `Edit ${key}: ${truncate(task.title, 60)}`, step: n, totalSteps: 2 });
    const field = await askChoice<Field>(step(1), fieldChoices(task), { placeholder: 'Change which field?' });
    let patch: Record<string, unknown>;
    switch (field) {
      case 'title':
      case 'description':
        patch = {
          [field]: await askText(step(2), {
            prompt: field === 'title' ? 'New title' : 'New description (empty clears it)',
            value: task[field] ?? '',
            validate: schemaCheck(schema, field),
          }),
        };
        break;
      case 'priority':
        patch = {
          priority: await askChoice(step(2), priorityChoices(), { placeholder: 'New priority', active: task.priority }),
        };
        break;
      case 'type':
        patch = {
          type: await askChoice(step(2), typeChoices(), { placeholder: 'New kind of task', active: task.type }),
        };
        break;
      case 'assignee':
        // "Nobody" is task_update's "" (unassign).
        patch = {
          assignee: '',
          ...(await this.askAssignee(step(2), services, schema, task.assigneeName ?? undefined)),
        };
        break;
      case 'labels':
        patch = {
          labels: await askText(step(2), {
            prompt: 'Labels, comma-separated (empty clears them)',
            value: task.labels.join(', '),
            validate: schemaCheck(schema, 'labels'),
          }),
        };
        break;
    }
    const updated = await services.tasks.update(parseInput('task_update', schema, { id: task.id, ...patch }));
    void vscode.window.showInformationMessage(`Updated ${key}: ${field} is now ${shown(updated, field)}.`);
    return updated;
  }

  /** An agent defined in `.agent-ledger/agents/` (AI), a person named by hand, or nobody. */
  private async askAssignee(
    step: Step,
    services: Services,
    schema: Parameters<typeof schemaCheck>[0],
    current: string | undefined,
  ): Promise<Assignment> {
    type Who = { kind: 'nobody' } | { kind: 'agent'; name: string } | { kind: 'person' };
    const { agents } = services.agents.current();
    const items: Choice<Who>[] = [
      { label: '$(circle-slash) Nobody', value: { kind: 'nobody' } },
      ...agents.map((a): Choice<Who> => ({
        label: `$(hubot) ${a.name}`,
        description: `AI agent · ${a.client}${a.model ? ` · ${a.model}` : ''}`,
        detail: a.description ?? undefined,
        value: { kind: 'agent', name: a.name },
      })),
      { label: '$(person) A person…', description: 'type their name', value: { kind: 'person' } },
    ];
    const active = items.find((i) => i.value.kind === 'agent' && i.value.name === current)?.value ?? items[0].value;
    const picked = await askChoice(step, items, { placeholder: 'Assign to', active });
    if (picked.kind === 'nobody') return {};
    if (picked.kind === 'agent') return { assignee: picked.name, assigneeType: 'ai' };
    const name = await askText(step, {
      prompt: 'Name of the person',
      value: current,
      validate: schemaCheck(schema, 'assignee'),
    });
    return { assignee: name.trim(), assigneeType: 'human' };
  }
}

function priorityChoices(): Choice<Priority>[] {
  return priorities.map((p) => ({ label: `$(${priorityIcons[p]}) ${p}`, description: priorityHints[p], value: p }));
}

function typeChoices(): Choice<TaskType>[] {
  return taskTypes.map((t) => ({ label: `$(${typeIcons[t]}) ${t}`, description: typeHints[t], value: t }));
}

function fieldChoices(task: TaskJson): Choice<Field>[] {
  const fields: [Field, string][] = [
    ['title', task.title],
    ['description', task.description ? truncate(task.description, 80) : '(none)'],
    ['priority', task.priority],
    ['type', task.type],
    [
      'assignee',
      task.assigneeName
        ? `${task.assigneeName}${task.assigneeType ? ` (${task.assigneeType === 'ai' ? 'AI agent' : 'person'})` : ''}`
        : '(nobody)',
    ],
    ['labels', task.labels.length ? task.labels.join(', ') : '(none)'],
  ];
  return fields.map(([value, current]) => ({
    label: value[0].toUpperCase() + value.slice(1),
    description: current,
    value,
  }));
}

function shown(task: TaskJson, field: Field): string {
  switch (field) {
    case 'assignee':
      return task.assigneeName ?? 'nobody';
    case 'labels':
      return task.labels.length ? task.labels.join(', ') : 'none';
    case 'description':
      return task.description ? `"${truncate(task.description, 60)}"` : 'empty';
    default:
      return `"${truncate(String(task[field]), 60)}"`;
  }
}
