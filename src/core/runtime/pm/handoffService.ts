import type { AsyncSqlReader, AsyncSqlWriter, LedgerEngine } from '../../ports/store';
import { untilSomething } from '../../waitFor';
import { LedgerError, stateError } from '../../errors';
import { taskKey, handoffKey, parsePmId, pmNotFound } from '../../ids';
import { appendPmEvent, agentDefinition } from './projectRows';
import type { AgentDirectory } from './projectRows';
import { pmTaskRow } from './projectTaskService';
import type { Handoff, TaskContext } from './handoffContracts';
import { pendingHandoffRows } from './pendingHandoffs';

interface ContextRow {
  id: number;
  task_id: number;
  agent: string | null;
  progress: string | null;
  findings: string | null;
  blockers: string | null;
  next_steps: string | null;
  created_at: string;
}

interface HandoffRow {
  id: number;
  task_id: number;
  from_agent: string;
  to_agent: string | null;
  summary: string;
  context: string | null;
  recommendations: string | null;
  status: 'pending' | 'accepted';
  created_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
}

const contextColumns = 'id, task_id, agent, progress, findings, blockers, next_steps, created_at';
const handoffColumns =
  'id, task_id, from_agent, to_agent, summary, context, recommendations, status, created_at, accepted_at, accepted_by';

function contextView(r: ContextRow): TaskContext {
  return {
    context_id: Number(r.id),
    task_id: taskKey(Number(r.task_id)),
    agent_id: r.agent,
    progress: r.progress,
    findings: r.findings,
    blockers: r.blockers,
    next_steps: r.next_steps,
    created_at: r.created_at,
  };
}

function handoffView(r: HandoffRow): Handoff {
  return {
    handoff_id: handoffKey(Number(r.id)),
    task_id: taskKey(Number(r.task_id)),
    from_agent_id: r.from_agent,
    to_agent_id: r.to_agent,
    summary: r.summary,
    context: r.context,
    recommendations: r.recommendations,
    status: r.status,
    created_at: r.created_at,
    accepted_at: r.accepted_at,
    accepted_by: r.accepted_by,
  };
}

export interface ContextFields {
  progress?: string | null;
  findings?: string | null;
  blockers?: string | null;
  next_steps?: string | null;
}

/** Saves a context of a task inside a write (report_completed uses it too). */
export async function insertContext(
  tx: AsyncSqlWriter,
  task: { id: number; workflow_id: number | null },
  agent: string | null,
  fields: ContextFields,
  ts: string,
): Promise<TaskContext> {
  const row: Omit<ContextRow, 'id'> = {
    task_id: task.id,
    agent,
    progress: fields.progress ?? null,
    findings: fields.findings ?? null,
    blockers: fields.blockers ?? null,
    next_steps: fields.next_steps ?? null,
    created_at: ts,
  };
  const id = await tx.insert(
    `INSERT INTO task_contexts (task_id, agent, progress, findings, blockers, next_steps, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [row.task_id, row.agent, row.progress, row.findings, row.blockers, row.next_steps, row.created_at],
  );
  await appendPmEvent(tx, {
    ts,
    kind: 'context.saved',
    taskId: task.id,
    workflowId: task.workflow_id,
    entity: 'context',
    entityId: String(id),
    payload: { agent },
  });
  return contextView({ id, ...row });
}

export async function latestContext(db: AsyncSqlReader, taskId: number): Promise<TaskContext | null> {
  const row = await db.get<ContextRow>(
    `SELECT ${contextColumns} FROM task_contexts WHERE task_id = ? ORDER BY id DESC LIMIT 1`,
    [taskId],
  );
  return row ? contextView(row) : null;
}

/** The latest handoff of a task for `agent`: addressed to it or to nobody, pending first. */
export async function latestHandoffFor(db: AsyncSqlReader, taskId: number, agent: string): Promise<Handoff | null> {
  const row = await db.get<HandoffRow>(
    `SELECT ${handoffColumns} FROM handoffs WHERE task_id = ? AND (to_agent = ? OR to_agent IS NULL)
     ORDER BY CASE WHEN status = 'pending' THEN 0 ELSE 1 END, id DESC LIMIT 1`,
    [taskId, agent],
  );
  return row ? handoffView(row) : null;
}

export async function latestHandoff(db: AsyncSqlReader, taskId: number): Promise<Handoff | null> {
  const row = await db.get<HandoffRow>(
    `SELECT ${handoffColumns} FROM handoffs WHERE task_id = ? ORDER BY id DESC LIMIT 1`,
    [taskId],
  );
  return row ? handoffView(row) : null;
}

/** Contexts and handoffs of tasks, over the asynchronous store port. */
export class HandoffService {
  constructor(
    private readonly engine: LedgerEngine,
    private readonly agents: AgentDirectory,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async saveContext(taskRef: string | number, fields: ContextFields, agent?: string): Promise<TaskContext> {
    const ts = this.now().toISOString();
    return this.engine.write(async (tx) => insertContext(tx, await pmTaskRow(tx, taskRef), agent ?? null, fields, ts));
  }

  async taskContext(
    taskRef: string | number,
    includeHistory: boolean,
  ): Promise<{ task_id: string; context: TaskContext | null; history?: TaskContext[] }> {
    return this.engine.read(async (db) => {
      const task = await pmTaskRow(db, taskRef);
      const context = await latestContext(db, task.id);
      if (!includeHistory) return { task_id: taskKey(task.id), context };
      const rows = await db.all<ContextRow>(
        `SELECT ${contextColumns} FROM task_contexts WHERE task_id = ? ORDER BY id`,
        [task.id],
      );
      return { task_id: taskKey(task.id), context, history: rows.map(contextView) };
    });
  }

  async create(input: {
    taskRef: string | number;
    from: string;
    to?: string;
    summary: string;
    context?: string;
    recommendations?: string;
  }): Promise<Handoff> {
    agentDefinition(this.agents, input.from);
    if (input.to !== undefined) agentDefinition(this.agents, input.to);
    const ts = this.now().toISOString();
    return this.engine.write(async (tx) => {
      const task = await pmTaskRow(tx, input.taskRef);
      const row: Omit<HandoffRow, 'id'> = {
        task_id: task.id,
        from_agent: input.from,
        to_agent: input.to ?? null,
        summary: input.summary,
        context: input.context ?? null,
        recommendations: input.recommendations ?? null,
        status: 'pending',
        created_at: ts,
        accepted_at: null,
        accepted_by: null,
      };
      const id = await tx.insert(
        'INSERT INTO handoffs (task_id, from_agent, to_agent, summary, context, recommendations, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [
          row.task_id,
          row.from_agent,
          row.to_agent,
          row.summary,
          row.context,
          row.recommendations,
          row.status,
          row.created_at,
        ],
      );
      if (row.to_agent !== null && task.project_id !== null && task.status === 'in_progress') {
        // Handing over is handing the task over: the recipient's runner sees it assigned (should_start) and launches it.
        const member = await tx.get<{ agent: string }>(
          'SELECT agent FROM project_agents WHERE project_id = ? AND agent = ?',
          [task.project_id, row.to_agent],
        );
        if (member)
          await tx.run('UPDATE tasks SET assignee = ?, updated_at = ? WHERE id = ?', [row.to_agent, ts, task.id]);
      }
      await appendPmEvent(tx, {
        ts,
        kind: 'handoff.created',
        taskId: task.id,
        workflowId: task.workflow_id,
        entity: 'handoff',
        entityId: String(id),
        payload: { from: row.from_agent, to: row.to_agent },
      });
      return handoffView({ id, ...row });
    });
  }

  /** Accepts a pending handoff: by its recipient, or by any agent when it names none. */
  async accept(handoffRef: string | number, agent: string): Promise<Handoff> {
    const id = parsePmId('handoff', handoffRef, 'handoff_id');
    const ts = this.now().toISOString();
    return this.engine.write(async (tx) => {
      const row = await tx.get<HandoffRow>(`SELECT ${handoffColumns} FROM handoffs WHERE id = ?`, [id]);
      if (!row)
        throw pmNotFound('handoff', handoffRef, 'handoff_id', 'list pending handoffs with get_pending_handoffs');
      if (row.status !== 'pending')
        throw stateError(`${handoffKey(id)} was already accepted by ${row.accepted_by ?? 'someone'}`, {
          handoff_id: handoffKey(id),
          accepted_by: row.accepted_by,
        });
      if (row.to_agent !== null && row.to_agent !== agent) {
        throw new LedgerError('ValidationError', `${handoffKey(id)} is addressed to ${row.to_agent}, not ${agent}`, {
          handoff_id: handoffKey(id),
          agent_id: agent,
        });
      }
      await tx.run("UPDATE handoffs SET status = 'accepted', accepted_at = ?, accepted_by = ? WHERE id = ?", [
        ts,
        agent,
        id,
      ]);
      await appendPmEvent(tx, {
        ts,
        kind: 'handoff.accepted',
        taskId: Number(row.task_id),
        entity: 'handoff',
        entityId: String(id),
        payload: { agent },
      });
      return handoffView({ ...row, status: 'accepted', accepted_at: ts, accepted_by: agent });
    });
  }

  /**
   * Pending handoffs (for `agent`: addressed to it or to nobody), oldest first. When there are
   * none, waits up to `waitMs` for any write and looks again; the wait holds no store lock.
   */
  async pending(agent: string | undefined, waitMs: number, signal?: AbortSignal): Promise<Handoff[]> {
    const handoffs = await untilSomething(
      this.engine,
      Date.now,
      waitMs,
      async () => {
        const rows = await this.engine.read((db) => pendingHandoffRows(db, agent));
        return rows.length > 0 ? rows.map(handoffView) : null;
      },
      { signal },
    );
    return handoffs ?? [];
  }

  /** Handoffs of a task, newest first (the handoff:// resource). */
  async ofTask(taskRef: string | number): Promise<{ task_id: string; latest: Handoff | null; handoffs: Handoff[] }> {
    return this.engine.read(async (db) => {
      const task = await pmTaskRow(db, taskRef);
      const rows = await db.all<HandoffRow>(
        `SELECT ${handoffColumns} FROM handoffs WHERE task_id = ? ORDER BY id DESC`,
        [task.id],
      );
      const handoffs = rows.map(handoffView);
      return { task_id: taskKey(task.id), latest: handoffs[0] ?? null, handoffs };
    });
  }
}
