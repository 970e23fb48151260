import * as path from 'node:path';
import type { AsyncSqlWriter, LedgerEngine } from '../../ports/store';
import { LedgerError, stateError, validationError } from '../../errors';
import { projectKey, taskKey } from '../../ids';
import { appendEvent } from '../../events/eventLog';
import { insertTask } from '../../tasks/taskRepo';
import { launchedAs } from '../runner/launchProfile';
import type { AgentDirectory, ProjectRow } from './projectRows';
import { absoluteDirectory, appendPmEvent, projectRowOf, projectRows } from './projectRows';
import { pmTaskRow } from './projectTaskService';
import type { QueueExistingTaskInput, QueueNewTaskInput, QueuedTask, RunClient } from './queueContracts';

/** Where a queued task goes, decided inside the write that queues it. */
interface Placement {
  project: ProjectRow;
  projectCreated: boolean;
  agentAdded: boolean;
}

const projectName = /^[A-Za-z0-9][A-Za-z0-9._ -]{0,99}$/;

/**
 * Queueing a task for an agent, in one write: the task goes to the agent's project, assigned to
 * it and in progress — what the runner launches. Which project: the one named (the agent must be
 * on it), else the task's own, else the agent's only active project, else the workspace's own
 * project (a project of the whole workspace, created and joined when needed, which the answer
 * says). An agent on several projects must be told which; nothing is written on any refusal.
 *
 * Queueing the same title for the same agent and project again while the first is still open or
 * in progress is refused with that task's id (`data.reason: alreadyQueued`): a retried script
 * must not queue the work twice, and a person who means a second task gives it its own title.
 */
export class TaskQueue {
  constructor(
    private readonly engine: LedgerEngine,
    private readonly workspace: string,
    private readonly agents: AgentDirectory,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** A new task, queued. */
  async queueNew(input: QueueNewTaskInput): Promise<QueuedTask> {
    const agent = this.agents.lookup(input.agent);
    const run = launchedAs(agent, input);
    const ts = this.now().toISOString();
    return this.engine.write(async (tx) => {
      const placed = await this.place(tx, agent.name, input.project, null, ts);
      await refuseTwice(tx, input.title, agent.name, placed.project);
      const id = await insertTask(
        tx,
        {
          title: input.title,
          description: input.description?.trim() ? input.description : null,
          status: 'in_progress',
          priority: input.priority,
          type: input.type,
          labels: input.labels ?? [],
          assignee: agent.name,
          assigneeType: 'ai',
        },
        ts,
      );
      await setRun(tx, id, placed.project.id, input);
      await appendEvent(tx, {
        ts,
        kind: 'task.created',
        taskId: id,
        payload: { title: input.title, priority: input.priority, type: input.type },
      });
      await queuedEvent(tx, id, null, agent.name, placed.project, ts);
      return this.answer(id, input.title, agent.name, placed, run);
    });
  }

  /** An existing task (open, or failed and tried again), queued. */
  async queueExisting(input: QueueExistingTaskInput): Promise<QueuedTask> {
    const ts = this.now().toISOString();
    return this.engine.write((tx) => this.queueExistingIn(tx, input, ts));
  }

  /** An existing task queued in the caller's write (a plan run queues its task leaves with its own state). */
  async queueExistingIn(tx: AsyncSqlWriter, input: QueueExistingTaskInput, ts: string): Promise<QueuedTask> {
    const agent = this.agents.lookup(input.agent);
    const run = launchedAs(agent, input);
    const task = await pmTaskRow(tx, input.task_id);
    const key = taskKey(task.id);
    if (task.status === 'done' || task.status === 'cancelled')
      throw stateError(`${key} is ${task.status}; create a new task for further work`, {
        task_id: key,
        status: task.status,
      });
    if (task.status === 'in_progress') {
      const mine = task.assignee === agent.name;
      throw stateError(
        mine
          ? `${key} is already queued for ${agent.name}${task.project_id === null ? '' : ` in ${(await projectRowOf(tx, Number(task.project_id))).name}`}`
          : `${key} is in progress${task.assignee ? ` for ${task.assignee}` : ''}; it can be queued again once it ends`,
        { task_id: key, status: task.status, ...(mine ? { reason: 'alreadyQueued' } : {}) },
      );
    }
    const placed = await this.place(
      tx,
      agent.name,
      input.project,
      task.project_id === null ? null : Number(task.project_id),
      ts,
    );
    await tx.run(
      "UPDATE tasks SET assignee = ?, assignee_type = 'ai', status = 'in_progress', result = NULL, completed_at = NULL, updated_at = ? WHERE id = ?",
      [agent.name, ts, task.id],
    );
    await setRun(tx, task.id, placed.project.id, input);
    await queuedEvent(tx, task.id, task.workflow_id, agent.name, placed.project, ts);
    return this.answer(task.id, task.title, agent.name, placed, run);
  }

  /** The project the task goes to (see the class comment), joined or created as needed. */
  private async place(
    tx: AsyncSqlWriter,
    agent: string,
    named: string | number | undefined,
    tasksOwn: number | null,
    ts: string,
  ): Promise<Placement> {
    const memberships = new Set(
      (await tx.all<{ project_id: number }>('SELECT project_id FROM project_agents WHERE agent = ?', [agent])).map(
        (m) => Number(m.project_id),
      ),
    );
    const chosen = named ?? tasksOwn ?? undefined;
    if (chosen !== undefined) {
      const project = await projectRowOf(tx, chosen, 'project');
      if (!memberships.has(project.id))
        throw validationError(
          `agent ${agent} is not on project ${project.name} (${projectKey(project.id)}): add it first (\`agent-ledger project add-agent ${project.name} ${agent}\`)`,
          { agent_id: agent, project_id: projectKey(project.id) },
        );
      if (project.status !== 'active')
        throw stateError(
          `project ${project.name} is archived, and the runner serves only active projects: activate it first (\`agent-ledger project activate ${project.name}\`)`,
          { project_id: projectKey(project.id), status: project.status },
        );
      return { project, projectCreated: false, agentAdded: false };
    }
    const active = (await projectRows(tx, true)).filter((p) => memberships.has(p.id));
    if (active.length === 1) return { project: active[0], projectCreated: false, agentAdded: false };
    if (active.length > 1)
      throw validationError(
        `agent ${agent} is on ${active.length} projects: ${active.map((p) => `${p.name} (${projectKey(p.id)}, ${p.working_directory})`).join(', ')}; say which one (--project ${active[0].name})`,
        { agent_id: agent, projects: active.map((p) => ({ project_id: projectKey(p.id), name: p.name })) },
      );
    return this.workspaceProject(tx, agent, ts);
  }

  /** The workspace's own project (folder "."), made when there is none, with the agent added. */
  private async workspaceProject(tx: AsyncSqlWriter, agent: string, ts: string): Promise<Placement> {
    let project = (await projectRows(tx, true)).find((p) => p.working_directory === '.');
    let projectCreated = false;
    if (!project) {
      const taken = new Set((await projectRows(tx)).map((p) => p.name.toLowerCase()));
      const base = path.basename(this.workspace);
      const name = [base, 'workspace', ...[2, 3, 4, 5, 6, 7, 8, 9].map((n) => `workspace-${n}`)].find(
        (n) => projectName.test(n) && !/^\d+$/.test(n) && n.toLowerCase() !== 'memory' && !taken.has(n.toLowerCase()),
      );
      if (!name)
        throw validationError('no free name for the workspace’s project: create one (`agent-ledger project create`)');
      const id = await tx.insert(
        'INSERT INTO projects (name, description, working_directory, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
        [name, 'The whole workspace', '.', 'active', ts, ts],
      );
      await appendPmEvent(tx, {
        ts,
        kind: 'project.created',
        entity: 'project',
        entityId: String(id),
        payload: { name, working_directory: '.' },
      });
      project = {
        id,
        name,
        description: 'The whole workspace',
        working_directory: '.',
        status: 'active',
        created_at: ts,
        updated_at: ts,
      };
      projectCreated = true;
    }
    const added = await tx.run(
      'INSERT INTO project_agents (project_id, agent, assigned_at) VALUES (?, ?, ?) ON CONFLICT (project_id, agent) DO NOTHING',
      [project.id, agent, ts],
    );
    if (added.changes > 0)
      await appendPmEvent(tx, {
        ts,
        kind: 'project.agent_added',
        entity: 'project',
        entityId: String(project.id),
        payload: { agent },
      });
    return { project, projectCreated, agentAdded: added.changes > 0 };
  }

  private answer(
    id: number,
    title: string,
    agent: string,
    placed: Placement,
    run: { client: string; model: string | null },
  ): QueuedTask {
    return {
      task_id: taskKey(id),
      title,
      status: 'in_progress',
      agent_id: agent,
      project_id: projectKey(placed.project.id),
      project_name: placed.project.name,
      working_directory: absoluteDirectory(this.workspace, placed.project.working_directory),
      client: run.client,
      model: run.model,
      project_created: placed.projectCreated,
      agent_added: placed.agentAdded,
    };
  }
}

async function refuseTwice(tx: AsyncSqlWriter, title: string, agent: string, project: ProjectRow): Promise<void> {
  const twin = await tx.get<{ id: number; status: string }>(
    "SELECT id, status FROM tasks WHERE title = ? AND assignee = ? AND project_id = ? AND status IN ('open', 'in_progress') ORDER BY id LIMIT 1",
    [title, agent, project.id],
  );
  if (!twin) return;
  const key = taskKey(Number(twin.id));
  throw new LedgerError(
    'InvalidStatus',
    `${key} "${title}" is already queued for ${agent} in ${project.name} (${twin.status}); see it with \`agent-ledger task get ${key}\`, or give the new task a title of its own`,
    { reason: 'alreadyQueued', task_id: key, status: twin.status },
  );
}

async function setRun(
  tx: AsyncSqlWriter,
  taskId: number,
  projectId: number,
  input: { client?: RunClient; model?: string },
): Promise<void> {
  await tx.run('UPDATE tasks SET project_id = ?, run_client = ?, run_model = ? WHERE id = ?', [
    projectId,
    input.client ?? null,
    input.model ?? null,
    taskId,
  ]);
}

async function queuedEvent(
  tx: AsyncSqlWriter,
  taskId: number,
  workflowId: number | null,
  agent: string,
  project: ProjectRow,
  ts: string,
): Promise<void> {
  await appendEvent(tx, {
    ts,
    kind: 'task.updated',
    workflowId,
    taskId,
    payload: {
      fields: ['assignee', 'project', 'status'],
      status: 'in_progress',
      assignee: agent,
      project: projectKey(project.id),
      queued: true,
    },
  });
}
