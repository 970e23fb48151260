import type { AsyncSqlReader, AsyncSqlWriter, SqlValue } from '../ports/store';
import type { CommitInfo, FileChanges, Snapshot } from '../ports/workspaceTruth';
import type { Outcome, Task, TaskStatus, Verification, TaskWaiting, WriteScope } from './taskModel';
import { fromJson, toJson } from '../json';
import { thisMachine } from '../machine';

/** Row shape of the `tasks` table. */
export interface TaskRow {
  id: number;
  workflow_id: number | null;
  parent_id: number | null;
  title: string;
  goal: string | null;
  description: string | null;
  status: string;
  result: string | null;
  priority: string;
  type: string;
  labels: string;
  assignee: string | null;
  assignee_type: string | null;
  areas: string;
  progress: number | null;
  last_milestone: string | null;
  snapshot_type: string | null;
  snapshot_id: string | null;
  snapshot_head: string | null;
  end_snapshot_id: string | null;
  started_at: string | null;
  completed_at: string | null;
  duration_seconds: number | null;
  outcome: string | null;
  metadata: string | null;
  files_changed: string | null;
  verification: string | null;
  commits: string | null;
  selected_session_id: number | null;
  worktree: string | null;
  write_scope: string | null;
  repository_root: string | null;
  workspace_path: string | null;
  machine_id?: string | null;
  os_user?: string | null;
  held_by?: string | null;
  held_at?: string | null;
  waiting?: string | null;
  created_at: string;
  updated_at: string;
}

export function toTask(r: TaskRow): Task {
  const snapshot: Snapshot | null =
    r.snapshot_type && r.snapshot_id
      ? {
          type: r.snapshot_type as Snapshot['type'],
          id: r.snapshot_id,
          head: r.snapshot_head,
          takenAt: r.started_at ?? r.created_at,
        }
      : null;
  return {
    id: r.id,
    workflowId: r.workflow_id,
    parentId: r.parent_id,
    title: r.title,
    goal: r.goal,
    description: r.description,
    status: r.status as TaskStatus,
    result: r.result as Task['result'],
    priority: r.priority as Task['priority'],
    type: r.type as Task['type'],
    labels: fromJson<string[]>(r.labels, []),
    assignee: r.assignee,
    assigneeType: r.assignee_type as Task['assigneeType'],
    areas: fromJson<string[]>(r.areas, []),
    progress: r.progress,
    lastMilestone: r.last_milestone,
    snapshot,
    endSnapshotId: r.end_snapshot_id,
    startedAt: r.started_at,
    completedAt: r.completed_at,
    durationSeconds: r.duration_seconds,
    outcome: fromJson<Outcome | null>(r.outcome, null),
    metadata: fromJson<Record<string, unknown> | null>(r.metadata, null),
    filesChanged: fromJson<FileChanges | null>(r.files_changed, null),
    verification: fromJson<Verification | null>(r.verification, null),
    commits: fromJson<CommitInfo[] | null>(r.commits, null),
    selectedSessionId: r.selected_session_id ?? null,
    worktree: r.worktree ?? null,
    writeScope: fromJson<WriteScope[] | null>(r.write_scope, null),
    repositoryRoot: r.repository_root ?? null,
    workspacePath: r.workspace_path ?? null,
    machineId: r.machine_id ?? null,
    osUser: r.os_user ?? null,
    hold: r.held_by && r.held_at ? { by: r.held_by, at: r.held_at } : null,
    waiting: fromJson<TaskWaiting | null>(r.waiting ?? null, null),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export async function getTask(db: AsyncSqlReader, id: number): Promise<Task | undefined> {
  const row = await db.get<TaskRow>('SELECT * FROM tasks WHERE id = ?', [id]);
  return row && toTask(row);
}

/** Columns a caller may set, in domain names → column and encoder. */
const columns: Record<string, [string, (v: never) => SqlValue]> = {
  workflowId: ['workflow_id', (v: number | null) => v],
  parentId: ['parent_id', (v: number | null) => v],
  title: ['title', (v: string) => v],
  goal: ['goal', (v: string | null) => v],
  description: ['description', (v: string | null) => v],
  status: ['status', (v: string) => v],
  result: ['result', (v: string | null) => v],
  priority: ['priority', (v: string) => v],
  type: ['type', (v: string) => v],
  labels: ['labels', (v: string[]) => JSON.stringify(v)],
  assignee: ['assignee', (v: string | null) => v],
  assigneeType: ['assignee_type', (v: string | null) => v],
  areas: ['areas', (v: string[]) => JSON.stringify(v)],
  progress: ['progress', (v: number | null) => v],
  lastMilestone: ['last_milestone', (v: string | null) => v],
  endSnapshotId: ['end_snapshot_id', (v: string | null) => v],
  startedAt: ['started_at', (v: string | null) => v],
  completedAt: ['completed_at', (v: string | null) => v],
  durationSeconds: ['duration_seconds', (v: number | null) => v],
  outcome: ['outcome', (v: unknown) => toJson(v)],
  metadata: ['metadata', (v: unknown) => toJson(v)],
  filesChanged: ['files_changed', (v: unknown) => toJson(v)],
  verification: ['verification', (v: unknown) => toJson(v)],
  commits: ['commits', (v: unknown) => toJson(v)],
  selectedSessionId: ['selected_session_id', (v: number | null) => v],
  worktree: ['worktree', (v: string | null) => v],
  writeScope: ['write_scope', (v: unknown) => toJson(v)],
  repositoryRoot: ['repository_root', (v: string | null) => v],
  workspacePath: ['workspace_path', (v: string | null) => v],
  machineId: ['machine_id', (v: string | null) => v],
  osUser: ['os_user', (v: string | null) => v],
};

export type TaskPatch = Partial<Omit<Task, 'id' | 'snapshot' | 'createdAt' | 'updatedAt'>> & {
  snapshot?: Snapshot | null;
};

function encode(patch: TaskPatch): [string[], SqlValue[]] {
  const names: string[] = [];
  const values: SqlValue[] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (key === 'snapshot') {
      const s = value as Snapshot | null;
      names.push('snapshot_type', 'snapshot_id', 'snapshot_head');
      values.push(s?.type ?? null, s?.id ?? null, s?.head ?? null);
      continue;
    }
    const column = columns[key];
    if (!column) throw new Error(`unknown task field ${key}`);
    names.push(column[0]);
    values.push(column[1](value as never));
  }
  return [names, values];
}

export function insertTask(
  tx: AsyncSqlWriter,
  fields: TaskPatch & { title: string; status: TaskStatus },
  at: string,
): Promise<number> {
  const machine = thisMachine();
  const [names, values] = encode({ machineId: machine.id, osUser: machine.user, ...fields });
  names.push('created_at', 'updated_at');
  values.push(at, at);
  return tx.insert(`INSERT INTO tasks (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`, values);
}

export async function updateTask(tx: AsyncSqlWriter, id: number, patch: TaskPatch, at: string): Promise<void> {
  const [names, values] = encode(patch);
  names.push('updated_at');
  values.push(at, id);
  await tx.run(`UPDATE tasks SET ${names.map((n) => `${n} = ?`).join(', ')} WHERE id = ?`, values);
}

export async function childTasks(db: AsyncSqlReader, parentId: number): Promise<Task[]> {
  return (await db.all<TaskRow>('SELECT * FROM tasks WHERE parent_id = ? ORDER BY id', [parentId])).map(toTask);
}

export async function tasksOfWorkflow(db: AsyncSqlReader, workflowId: number): Promise<Task[]> {
  return (await db.all<TaskRow>('SELECT * FROM tasks WHERE workflow_id = ? ORDER BY id', [workflowId])).map(toTask);
}
