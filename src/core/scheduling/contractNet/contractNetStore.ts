import type { AsyncSqlReader, AsyncSqlWriter } from '../../ports/store';
import type { EventKind } from '../../events/eventKinds';
import { stateError } from '../../errors';
import type { CnpCall, RunningTask } from './contractNetModel';
import type { CnpCorrelation } from './contractNetModel';
import { callerTokenId } from '../../caller';

/**
 * The rows behind the contract-net tools (migration v11): calls, the running tasks and loads the
 * conflict check and the busy penalty read, and events. Every function takes the reader or
 * writer of the caller's transaction, so a decision and what it is based on are one state.
 */

export const finishedStatuses = "('done', 'failed', 'cancelled')";

interface CallRow {
  call: string;
}

export async function loadCall(db: AsyncSqlReader, callId: string): Promise<CnpCall> {
  const row = await db.get<CallRow>('SELECT call FROM cnp_calls WHERE call_id = ?', [callId]);
  if (!row)
    throw stateError(`no contract-net call ${callId} (cnp_announce returns the call_id)`, {
      error: 'E-CNP-NOT-FOUND',
      callId,
    });
  return JSON.parse(row.call) as CnpCall;
}

export async function openCalls(db: AsyncSqlReader): Promise<CnpCall[]> {
  const rows = await db.all<CallRow>("SELECT call FROM cnp_calls WHERE status = 'open' ORDER BY announced_at, call_id");
  return rows.map((r) => JSON.parse(r.call) as CnpCall);
}

/** Inserts or rewrites a call; `scope` is what the task will write once awarded. */
export async function saveCall(
  tx: AsyncSqlWriter,
  call: CnpCall,
  taskId: number,
  scope: readonly string[],
  now: number,
): Promise<void> {
  await tx.run(
    `INSERT INTO cnp_calls (call_id, task_id, status, agent_id, scope, announced_at, updated_at, call) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (call_id) DO UPDATE SET status = excluded.status, agent_id = excluded.agent_id, scope = excluded.scope, updated_at = excluded.updated_at, call = excluded.call`,
    [
      call.call_id,
      taskId,
      call.status,
      call.awarded_agent_id,
      JSON.stringify(scope),
      call.announced_at,
      now,
      JSON.stringify(call),
    ],
  );
}

interface TaskScopeRow {
  id: number;
  assignee: string | null;
  status: string;
  areas: string;
  write_scope: string | null;
}

/** What a task writes: its agents' write scopes when a session recorded them, else its areas. */
export function taskWriteScope(row: { areas: string; write_scope: string | null }): string[] {
  const scopes = row.write_scope ? (JSON.parse(row.write_scope) as { write?: string[] }[]) : [];
  const write = scopes.flatMap((s) => s.write ?? []);
  return [...new Set(write.length > 0 ? write : (JSON.parse(row.areas) as string[]))];
}

/**
 * The tasks that count as running for the conflict check and the busy penalty: tasks in
 * progress, and tasks awarded by contract-net that have not started yet (their call's scope).
 * `load` counts both per agent.
 */
export async function runningState(
  db: AsyncSqlReader,
): Promise<{ running: RunningTask[]; load: Record<string, number> }> {
  const inProgress = await db.all<TaskScopeRow>(
    "SELECT id, assignee, status, areas, write_scope FROM tasks WHERE status = 'in_progress'",
  );
  const awarded = await db.all<{ task_id: number; agent_id: string | null; scope: string; status: string }>(
    `SELECT c.task_id, c.agent_id, c.scope, t.status FROM cnp_calls c JOIN tasks t ON t.id = c.task_id WHERE c.status = 'awarded' AND t.status NOT IN ${finishedStatuses}`,
  );
  const callScope = new Map<number, { agent: string | null; scope: string[] }>();
  for (const a of awarded)
    callScope.set(Number(a.task_id), { agent: a.agent_id, scope: JSON.parse(a.scope) as string[] });
  const running: RunningTask[] = [];
  const load: Record<string, number> = {};
  const count = (agent: string | null) => {
    if (agent) load[agent] = (load[agent] ?? 0) + 1;
  };
  const seen = new Set<number>();
  for (const t of inProgress) {
    const id = Number(t.id);
    seen.add(id);
    const own = taskWriteScope(t);
    const viaCall = callScope.get(id);
    const agent = t.assignee ?? viaCall?.agent ?? null;
    running.push({ taskId: `task-${id}`, agentId: agent, writeScope: own.length > 0 ? own : (viaCall?.scope ?? []) });
    count(agent);
  }
  for (const [id, c] of callScope) {
    if (seen.has(id)) continue;
    running.push({ taskId: `task-${id}`, agentId: c.agent, writeScope: c.scope });
    count(c.agent);
  }
  return { running, load };
}

export interface TaskFactsRow {
  id: number;
  workflow_id: number | null;
  title: string;
  status: string;
  areas: string;
  write_scope: string | null;
}

export async function taskRow(db: AsyncSqlReader, id: number): Promise<TaskFactsRow | undefined> {
  return db.get<TaskFactsRow>('SELECT id, workflow_id, title, status, areas, write_scope FROM tasks WHERE id = ?', [
    id,
  ]);
}

/** Gives the task to the winner (assignee), as task_update would, with a task.updated event. */
export async function assignTask(
  tx: AsyncSqlWriter,
  taskId: number,
  workflowId: number | null,
  agent: string,
  now: number,
): Promise<void> {
  const ts = new Date(now).toISOString();
  await tx.run("UPDATE tasks SET assignee = ?, assignee_type = 'ai', updated_at = ? WHERE id = ?", [agent, ts, taskId]);
  await tx.insert(
    'INSERT INTO events (ts, kind, workflow_id, task_id, payload, token_id) VALUES (?, ?, ?, ?, ?, ?) RETURNING seq',
    [
      ts,
      'task.updated',
      workflowId,
      taskId,
      JSON.stringify({ fields: ['assignee', 'assigneeType'], by: 'contract_net' }),
      callerTokenId(),
    ],
  );
}

/**
 * Appends a contract-net event, with the call's correlation ids on their columns. `kind` is the
 * public implementation's message (`cnp_call_announced`, `cnp_bid_recorded`, `cnp_call_awarded`,
 * `cnp_call_bounds_updated`, `cnp_call_completed`; ours: `cnp_call_award_blocked`), repeated as
 * `msg` with `cat: "contract_net"` in the payload.
 */
export async function appendCnpEvent(
  tx: AsyncSqlWriter,
  kind: EventKind,
  now: number,
  subject: { callId: string; taskId: number | null; correlation?: CnpCorrelation | null },
  payload: Record<string, unknown>,
): Promise<number> {
  const c = subject.correlation;
  return tx.insert(
    `INSERT INTO events (ts, kind, task_id, entity, entity_id, payload, run_id, op_id, job_id, graph_id, node_id, child_id, token_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
    [
      new Date(now).toISOString(),
      kind,
      subject.taskId,
      'contract_net',
      subject.callId,
      JSON.stringify({ cat: 'contract_net', msg: kind, call_id: subject.callId, ...payload }),
      c?.run_id ?? null,
      c?.op_id ?? null,
      c?.job_id ?? null,
      c?.graph_id ?? null,
      c?.node_id ?? null,
      c?.child_id ?? null,
      callerTokenId(),
    ],
  );
}
