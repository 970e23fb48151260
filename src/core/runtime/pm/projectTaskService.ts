import type { AsyncSqlReader, AsyncSqlWriter, LedgerEngine, SqlValue } from '../../ports/store';
import { LedgerError, stateError, validationError } from '../../errors';
import { notFound, parseId, taskKey, projectKey } from '../../ids';
import { isFinished } from '../../tasks/taskModel';
import type { TaskStatus } from '../../tasks/taskModel';
import type { TaskLifecycle } from '../../tasks/taskLifecycle';
import { aiTypeOf } from './aiType';
import type { AgentDirectory } from './projectRows';
import { agentDefinition, agentsByProject, appendPmEvent, projectRowOf, projectRows } from './projectRows';
import type { AgentProfile, PmTask } from './projectContracts';

/** The task columns the agent-PM tools read: the same `tasks` rows every other tool uses. */
export interface PmTaskRow {
  id: number;
  workflow_id: number | null;
  parent_id: number | null;
  project_id: number | null;
  title: string;
  description: string | null;
  goal: string | null;
  status: TaskStatus;
  priority: string;
  assignee: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
  /** The client (and model) a queued task asked to run with, when not its agent's (taskQueue.ts). */
  run_client: string | null;
  run_model: string | null;
  /** The task's worktree (workspace-relative, or absolute in a worktrees folder elsewhere), once a run prepared it. */
  worktree: string | null;
}

export const pmTaskColumns =
  'id, workflow_id, parent_id, project_id, title, description, goal, status, priority, assignee, created_at, updated_at, started_at, completed_at, run_client, run_model, worktree';

export function pmTaskView(r: PmTaskRow): PmTask {
  return {
    task_id: taskKey(Number(r.id)),
    project_id: r.project_id === null ? null : projectKey(Number(r.project_id)),
    parent_task_id: r.parent_id === null ? null : taskKey(Number(r.parent_id)),
    title: r.title,
    description: r.description ?? r.goal,
    status: r.status,
    priority: r.priority,
    assignee_id: r.assignee,
    created_at: r.created_at,
    updated_at: r.updated_at,
    started_at: r.started_at,
    completed_at: r.completed_at,
  };
}

export async function pmTaskRow(db: AsyncSqlReader, ref: string | number, field = 'task_id'): Promise<PmTaskRow> {
  const id = parseId('task', ref);
  const row = await db.get<PmTaskRow>(`SELECT ${pmTaskColumns} FROM tasks WHERE id = ?`, [id]);
  if (!row) {
    const err = notFound('task', ref);
    throw new LedgerError(err.code, err.message, { [field]: ref });
  }
  return { ...row, id: Number(row.id) };
}

/** Sub-tasks still open or in progress (a parent cannot be completed while there are any). */
export async function openSubtasks(db: AsyncSqlReader, taskId: number): Promise<number[]> {
  const rows = await db.all<{ id: number }>(
    "SELECT id FROM tasks WHERE parent_id = ? AND status IN ('open', 'in_progress') ORDER BY id",
    [taskId],
  );
  return rows.map((r) => Number(r.id));
}

/** Moves a task to `status` in `tx`, refusing "done" over open sub-tasks; returns the previous status. */
export async function setTaskStatus(
  tx: AsyncSqlWriter,
  task: PmTaskRow,
  status: TaskStatus,
  ts: string,
  by: string | null,
): Promise<TaskStatus> {
  if (status === 'done') {
    const open = await openSubtasks(tx, task.id);
    if (open.length > 0) {
      throw stateError(
        `${taskKey(task.id)} cannot be completed while its sub-tasks ${open.map(taskKey).join(', ')} are open or in progress`,
        {
          task_id: taskKey(task.id),
          open_subtasks: open.map(taskKey),
        },
      );
    }
  }
  if (task.status === status) return status;
  const finished = isFinished(status);
  const result = status === 'done' ? 'success' : status === 'failed' ? 'failed' : null;
  await tx.run(
    'UPDATE tasks SET status = ?, result = ?, started_at = ?, completed_at = ?, updated_at = ? WHERE id = ?',
    [
      status,
      finished ? result : null,
      status === 'in_progress' ? (task.started_at ?? ts) : task.started_at,
      finished ? ts : null,
      ts,
      task.id,
    ],
  );
  await appendPmEvent(tx, {
    ts,
    kind: 'task.updated',
    taskId: task.id,
    workflowId: task.workflow_id,
    entity: 'task',
    entityId: String(task.id),
    payload: { fields: ['status'], status, previous: task.status, by },
  });
  return task.status;
}

/**
 * The task and agent tools of the agent PM over the asynchronous port: the ledger's own tasks
 * (a task made with task_create is listed, assigned and run here), and the agent definitions.
 */
export class ProjectTaskService {
  constructor(
    private readonly engine: LedgerEngine,
    private readonly agents: AgentDirectory,
    private readonly now: () => Date = () => new Date(),
    /** Told when update_task_status ends a task (taskLifecycle.ts). */
    private readonly lifecycle?: TaskLifecycle,
  ) {}

  async list(projectRef: string | number, filter: { status?: TaskStatus; assignee?: string }): Promise<PmTask[]> {
    return this.engine.read(async (db) => {
      const project = await projectRowOf(db, projectRef);
      const where = ['project_id = ?'];
      const params: SqlValue[] = [project.id];
      if (filter.status) {
        where.push('status = ?');
        params.push(filter.status);
      }
      if (filter.assignee) {
        where.push('assignee = ?');
        params.push(filter.assignee);
      }
      const rows = await db.all<PmTaskRow>(
        `SELECT ${pmTaskColumns} FROM tasks WHERE ${where.join(' AND ')} ORDER BY id`,
        params,
      );
      return rows.map(pmTaskView);
    });
  }

  async get(
    ref: string | number,
  ): Promise<PmTask & { subtasks: { task_id: string; title: string; status: TaskStatus }[] }> {
    return this.engine.read(async (db) => {
      const row = await pmTaskRow(db, ref);
      const children = await db.all<{ id: number; title: string; status: TaskStatus }>(
        'SELECT id, title, status FROM tasks WHERE parent_id = ? ORDER BY id',
        [row.id],
      );
      return {
        ...pmTaskView(row),
        subtasks: children.map((c) => ({ task_id: taskKey(Number(c.id)), title: c.title, status: c.status })),
      };
    });
  }

  async updateStatus(
    ref: string | number,
    status: TaskStatus,
  ): Promise<{ task_id: string; previous_status: TaskStatus; status: TaskStatus }> {
    const ts = this.now().toISOString();
    const changed = await this.engine.write(async (tx) => {
      const row = await pmTaskRow(tx, ref);
      const previous = await setTaskStatus(tx, row, status, ts, null);
      return {
        id: row.id,
        previous: row.status,
        answer: { task_id: taskKey(row.id), previous_status: previous, status },
      };
    });
    await this.lifecycle?.changed(changed.id, changed.previous, status);
    return changed.answer;
  }

  /**
   * Assigns a task to an agent and places it in a project: the one given (the agent must be
   * assigned to it), else the task's own, else the agent's only project.
   */
  async assign(
    ref: string | number,
    agentId: string,
    projectRef?: string | number,
  ): Promise<{ task_id: string; assignee_id: string; project_id: string | null }> {
    agentDefinition(this.agents, agentId);
    const ts = this.now().toISOString();
    return this.engine.write(async (tx) => {
      const row = await pmTaskRow(tx, ref);
      const memberships = await tx.all<{ project_id: number }>(
        'SELECT project_id FROM project_agents WHERE agent = ? ORDER BY project_id',
        [agentId],
      );
      const of = new Set(memberships.map((m) => Number(m.project_id)));
      let projectId: number | null = row.project_id === null ? null : Number(row.project_id);
      if (projectRef !== undefined) {
        const project = await projectRowOf(tx, projectRef);
        if (!of.has(project.id)) {
          throw validationError(
            `agent ${agentId} is not assigned to project ${projectKey(project.id)}: add it first (\`agent-ledger project add-agent ${project.name} ${agentId}\`)`,
            {
              assignee_id: agentId,
              project_id: projectKey(project.id),
            },
          );
        }
        projectId = project.id;
      } else if (projectId === null && of.size === 1) {
        projectId = [...of][0];
      } else if (projectId === null && of.size > 1) {
        // Stored without a project, the task would never be handed out: say which ones to choose from.
        const projects = (await projectRows(tx)).filter((p) => of.has(p.id));
        throw validationError(
          `agent ${agentId} is on ${projects.length} projects: ${projects.map((p) => `${p.name} (${projectKey(p.id)})`).join(', ')}; pass project_id to say which one the task belongs to`,
          {
            assignee_id: agentId,
            projects: projects.map((p) => ({ project_id: projectKey(p.id), name: p.name })),
          },
        );
      }
      await tx.run("UPDATE tasks SET assignee = ?, assignee_type = 'ai', project_id = ?, updated_at = ? WHERE id = ?", [
        agentId,
        projectId,
        ts,
        row.id,
      ]);
      await appendPmEvent(tx, {
        ts,
        kind: 'task.updated',
        taskId: row.id,
        workflowId: row.workflow_id,
        entity: 'task',
        entityId: String(row.id),
        payload: {
          fields: ['assignee', 'project'],
          assignee: agentId,
          project: projectId === null ? null : projectKey(projectId),
        },
      });
      return {
        task_id: taskKey(row.id),
        assignee_id: agentId,
        project_id: projectId === null ? null : projectKey(projectId),
      };
    });
  }

  async agentProfile(agentId: string): Promise<AgentProfile & { system_prompt: string }> {
    const def = agentDefinition(this.agents, agentId);
    const [profile] = await this.profiles([def.name]);
    return { ...profile, system_prompt: def.promptContent };
  }

  async listAgents(): Promise<AgentProfile[]> {
    return this.profiles(this.agents.current().agents.map((a) => a.name));
  }

  private async profiles(names: string[]): Promise<AgentProfile[]> {
    const defs = new Map(this.agents.current().agents.map((a) => [a.name, a]));
    const { byAgent, keyed } = await this.engine.read(async (db) => {
      const byProject = await agentsByProject(db);
      const byAgent = new Map<string, string[]>();
      for (const [pid, list] of byProject)
        for (const a of list) byAgent.set(a, [...(byAgent.get(a) ?? []), projectKey(pid)]);
      const keyed = new Set(
        (await db.all<{ agent: string }>('SELECT agent FROM agent_credentials')).map((r) => r.agent),
      );
      return { byAgent, keyed };
    });
    return names.flatMap((name) => {
      const def = defs.get(name);
      if (!def) return [];
      return [
        {
          agent_id: def.name,
          name: def.name,
          description: def.description,
          ai_type: aiTypeOf(def.client),
          model: def.model,
          projects: byAgent.get(def.name) ?? [],
          has_passkey: keyed.has(def.name),
        },
      ];
    });
  }
}
