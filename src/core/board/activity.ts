import type { AsyncSqlReader, LedgerEngine } from '../ports/store';
import { LedgerError } from '../errors';
import { fromJson } from '../json';
import { formatUsd, plural } from '../format';
import { taskKey } from '../ids';
import type { FileChanges } from '../ports/workspaceTruth';

/**
 * What a person follows of the ledger, one item per event that matters to them: a task queued,
 * taken, finished (with how many files it changed), a run launched or ended (with its cost), a
 * checkpoint waiting for a person, a handoff. Read from the events log (never by polling tables)
 * and given the titles, agents and figures the events themselves do not carry.
 */
export const activityKinds = [
  'task.queued',
  'task.assigned',
  'task.started',
  'task.milestone',
  'task.review',
  'task.completed',
  'task.cancelled',
  'task.reopened',
  'run.launched',
  'run.ended',
  'checkpoint.waiting',
  'checkpoint.decided',
  'pipeline.ended',
  'handoff.created',
  'handoff.accepted',
] as const;
export type ActivityKind = (typeof activityKinds)[number];

export interface ActivityItem {
  /** The event's seq: a cursor to resume from. */
  seq: number;
  /** ISO time of the event. */
  at: string;
  kind: ActivityKind;
  /** `task-3`, when the event is about a task. */
  task: string | null;
  /** The task's title, or the pipeline's. */
  title: string | null;
  /** The agent it concerns: the run's or session's, else the task's assignee. */
  agent: string | null;
  workflow: string | null;
  /** What happened, in a person's words, without the task and agent (a line shows those apart). */
  text: string;
  /** task.completed: how many files the task changed (null: not measured). */
  files?: number | null;
  /** task.completed: success, partial_success, failed… */
  result?: string | null;
  /** run.ended: what the run cost in USD (null: its client printed no cost). */
  costUsd?: number | null;
  /** run.*: the execution log (`exec-4`). */
  run?: string | null;
  /** checkpoint.* and pipeline.*: the pipeline folder (`.specs/…`) and the checkpoint's name. */
  pipeline?: string | null;
  checkpoint?: string | null;
  /** checkpoint.decided: who decided. */
  by?: string | null;
}

/** Which items to show: each filter given must match. */
export interface ActivityFilter {
  taskId?: number;
  agent?: string;
  /** Exact kinds (`task.completed`) or families (`task`, `run`, `checkpoint`, `pipeline`, `handoff`). */
  kinds?: readonly string[];
}

const families = [...new Set(activityKinds.map((k) => k.split('.')[0]))];

/** Checks `--kind` values: a kind or a family each; a ValidationError naming the accepted ones otherwise. */
export function parseActivityKinds(values: readonly string[]): string[] {
  const out = values.map((v) => v.trim()).filter(Boolean);
  for (const v of out)
    if (!families.includes(v) && !(activityKinds as readonly string[]).includes(v))
      throw new LedgerError(
        'ValidationError',
        `unknown activity kind "${v}": use a family (${families.join(', ')}) or a kind (${activityKinds.join(', ')})`,
        { kind: v },
      );
  return out;
}

export function matchesActivity(item: ActivityItem, filter: ActivityFilter): boolean {
  if (filter.taskId !== undefined && item.task !== taskKey(filter.taskId)) return false;
  if (filter.agent !== undefined && item.agent !== filter.agent) return false;
  if (filter.kinds?.length && !filter.kinds.some((k) => item.kind === k || item.kind.startsWith(`${k}.`))) return false;
  return true;
}

interface EventRow {
  seq: number;
  ts: string;
  kind: string;
  task_id: number | null;
  entity: string | null;
  entity_id: string | null;
  payload: string;
  os_user: string | null;
}

interface TaskRow {
  id: number;
  title: string;
  assignee: string | null;
  result: string | null;
  files_changed: string | null;
  workflow: string | null;
}

interface RunRow {
  id: number;
  task_id: number | null;
  agent: string;
  cost_usd: number | null;
}

/** The event kinds an item can come from (the rest of the log is not read). */
const sourceKinds = [
  'task.created',
  'task.updated',
  'task.started',
  'task.snapshot_taken',
  'task.completed',
  'milestone.logged',
  'issue.logged',
  'runner.launched',
  'runner.run_ended',
  'pipeline.waiting',
  'pipeline.decided',
  'pipeline.completed',
  'pipeline.abandoned',
  'handoff.created',
  'handoff.accepted',
];
const kindList = sourceKinds.map((k) => `'${k}'`).join(', ');

/** Reads events past a cursor and turns those a person follows into items. */
export class ActivityFeed {
  constructor(private readonly engine: LedgerEngine) {}

  /** The seq of the newest event: following from here shows only what happens next. */
  lastSeq(): Promise<number> {
    return this.engine.read(async (db) =>
      Number((await db.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM events'))?.seq ?? 0),
    );
  }

  /**
   * Items of the events after `afterSeq`, oldest first, looking at most at `limit` events;
   * `cursor` is where the next read starts (past every event looked at, item or not).
   */
  async read(afterSeq: number, limit = 500): Promise<{ items: ActivityItem[]; cursor: number }> {
    return this.engine.read(async (db) => {
      const last = await db.get<{ seq: number }>(
        `SELECT seq FROM (SELECT seq FROM events WHERE seq > ? ORDER BY seq LIMIT ?) s ORDER BY seq DESC LIMIT 1`,
        [afterSeq, limit],
      );
      if (!last) return { items: [], cursor: afterSeq };
      const cursor = Number(last.seq);
      const rows = await db.all<EventRow>(
        `SELECT seq, ts, kind, task_id, entity, entity_id, payload, os_user FROM events
         WHERE seq > ? AND seq <= ? AND kind IN (${kindList}) ORDER BY seq`,
        [afterSeq, cursor],
      );
      return { items: await itemsOf(db, rows), cursor };
    });
  }

  /** The last `count` items matching `filter` before `beforeSeq` (inclusive), oldest first; looks back at most `scan` events. */
  async history(beforeSeq: number, count: number, filter: ActivityFilter, scan = 20_000): Promise<ActivityItem[]> {
    if (count <= 0) return [];
    const found: ActivityItem[] = [];
    let upTo = beforeSeq;
    while (found.length < count && upTo > 0 && beforeSeq - upTo < scan) {
      const from = Math.max(0, upTo - 1000);
      const { items } = await this.read(from, upTo - from);
      found.unshift(...items.filter((i) => matchesActivity(i, filter)));
      upTo = from;
    }
    return found.slice(-count);
  }

  /**
   * Items after `afterSeq` as they happen, woken by a write from any process or machine (the
   * store's change wait: the journal's watch, or LISTEN on PostgreSQL), until `signal` aborts.
   */
  async *follow(afterSeq: number, filter: ActivityFilter, signal: AbortSignal): AsyncGenerator<ActivityItem> {
    let cursor = afterSeq;
    while (!signal.aborted) {
      // Known before the read: a commit landing after it wakes the wait at once.
      const known = this.engine.seq;
      const page = await this.read(cursor);
      cursor = page.cursor;
      for (const item of page.items) if (matchesActivity(item, filter)) yield item;
      if (page.items.length === 0 && !signal.aborted) {
        try {
          await this.engine.waitForChange(known, { timeoutMs: 50_000, signal });
        } catch (err) {
          if (signal.aborted) return;
          throw err;
        }
      }
    }
  }
}

async function itemsOf(db: AsyncSqlReader, rows: EventRow[]): Promise<ActivityItem[]> {
  if (rows.length === 0) return [];
  const runIds = new Set<number>();
  for (const r of rows) if (r.entity === 'execution' && r.entity_id) runIds.add(Number(r.entity_id));
  const runs = await readRuns(db, [...runIds]);
  const taskIds = new Set<number>();
  for (const r of rows) {
    if (r.task_id !== null) taskIds.add(Number(r.task_id));
    const run = r.entity === 'execution' ? runs.get(Number(r.entity_id)) : undefined;
    if (run?.task_id != null) taskIds.add(Number(run.task_id));
  }
  const tasks = await readTasks(db, [...taskIds]);
  const pipelines = await readPipelineTitles(db, rows);
  const items: ActivityItem[] = [];
  for (const r of rows) {
    const item = itemOf(r, tasks, runs, pipelines);
    if (item) items.push(item);
  }
  return items;
}

function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

async function readTasks(db: AsyncSqlReader, ids: number[]): Promise<Map<number, TaskRow>> {
  const out = new Map<number, TaskRow>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    for (const t of await db.all<TaskRow>(
      `SELECT t.id, t.title, t.assignee, t.result, t.files_changed, w.name AS workflow
       FROM tasks t LEFT JOIN workflows w ON w.id = t.workflow_id WHERE t.id IN (${placeholders(chunk.length)})`,
      chunk,
    ))
      out.set(Number(t.id), t);
  }
  return out;
}

async function readRuns(db: AsyncSqlReader, ids: number[]): Promise<Map<number, RunRow>> {
  const out = new Map<number, RunRow>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    for (const r of await db.all<RunRow>(
      `SELECT id, task_id, agent, cost_usd FROM execution_logs WHERE id IN (${placeholders(chunk.length)})`,
      chunk,
    ))
      out.set(Number(r.id), r);
  }
  return out;
}

async function readPipelineTitles(db: AsyncSqlReader, rows: EventRow[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.filter((r) => r.entity === 'pipeline' && r.entity_id).map((r) => Number(r.entity_id)))];
  const out = new Map<number, string>();
  if (ids.length === 0) return out;
  for (const p of await db.all<{ id: number; title: string }>(
    `SELECT id, title FROM pipelines WHERE id IN (${placeholders(ids.length)})`,
    ids,
  ))
    out.set(Number(p.id), p.title);
  return out;
}

function fileCount(json: string | null): number | null {
  const files = fromJson<FileChanges | null>(json, null);
  if (!files) return null;
  return files.added.length + files.modified.length + files.deleted.length + files.renamed.length;
}

function itemOf(
  r: EventRow,
  tasks: Map<number, TaskRow>,
  runs: Map<number, RunRow>,
  pipelines: Map<number, string>,
): ActivityItem | null {
  const p = fromJson<Record<string, unknown>>(r.payload, {});
  const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
  const run = r.entity === 'execution' ? runs.get(Number(r.entity_id)) : undefined;
  const taskId = r.task_id !== null ? Number(r.task_id) : run?.task_id != null ? Number(run.task_id) : null;
  const task = taskId === null ? undefined : tasks.get(taskId);
  const base = {
    seq: Number(r.seq),
    at: r.ts,
    task: taskId === null ? null : taskKey(taskId),
    title: task?.title ?? null,
    agent: task?.assignee ?? null,
    workflow: task?.workflow ?? null,
  };
  switch (r.kind) {
    case 'task.created': {
      const assignee = str(p.assignee) ?? task?.assignee ?? null;
      return { ...base, kind: 'task.queued', agent: assignee, text: assignee ? `queued for ${assignee}` : 'queued' };
    }
    case 'task.updated': {
      const fields = Array.isArray(p.fields) ? (p.fields as unknown[]) : [];
      if (p.status === 'cancelled') return { ...base, kind: 'task.cancelled', text: 'cancelled' };
      if (p.status === 'open' && fields.includes('status')) return { ...base, kind: 'task.reopened', text: 'reopened' };
      if (fields.includes('assignee')) {
        const to = p.assignee === undefined ? (task?.assignee ?? null) : str(p.assignee);
        return to
          ? { ...base, kind: 'task.assigned', agent: to, text: `queued for ${to}` }
          : { ...base, kind: 'task.assigned', agent: null, text: 'unassigned' };
      }
      return null;
    }
    case 'task.started':
    case 'task.snapshot_taken': {
      const agent = str(p.agent) ?? base.agent;
      return { ...base, kind: 'task.started', agent, text: agent ? `started by ${agent}` : 'started' };
    }
    case 'milestone.logged': {
      const progress = typeof p.progress === 'number' ? ` (${p.progress}%)` : '';
      return { ...base, kind: 'task.milestone', text: `${str(p.message) ?? 'milestone'}${progress}` };
    }
    case 'issue.logged':
      if (p.requiresHumanReview !== true) return null;
      return { ...base, kind: 'task.review', text: `asks for a person's review: ${str(p.description) ?? ''}`.trim() };
    case 'task.completed': {
      const files = fileCount(task?.files_changed ?? null);
      const result = str(p.status) ?? task?.result ?? null;
      const review = p.manualReviewNeeded === true ? ', asks for a review' : '';
      const changed = files === null ? '' : `, ${plural(files, 'file')} changed`;
      return {
        ...base,
        kind: 'task.completed',
        files,
        result,
        text: `completed: ${(result ?? 'done').replace('_', ' ')}${changed}${review}`,
      };
    }
    case 'runner.launched': {
      const agent = str(p.agent) ?? run?.agent ?? base.agent;
      const client = str(p.client);
      return {
        ...base,
        kind: 'run.launched',
        agent,
        run: `exec-${r.entity_id}`,
        text: `run exec-${r.entity_id} launched${client ? ` (${client})` : ''}`,
      };
    }
    case 'runner.run_ended': {
      const agent = str(p.agent) ?? run?.agent ?? base.agent;
      const cost = typeof p.costUsd === 'number' ? p.costUsd : (run?.cost_usd ?? null);
      const how =
        p.limit && typeof p.limit === 'string'
          ? `stopped by its ${p.limit} limit`
          : p.signal
            ? `killed by ${String(p.signal)}`
            : `exit ${String(p.exitCode ?? '?')}`;
      return {
        ...base,
        kind: 'run.ended',
        agent,
        run: `exec-${r.entity_id}`,
        costUsd: cost === null ? null : Number(cost),
        text: `run exec-${r.entity_id} ended: ${how}, ${cost === null ? 'cost not reported' : formatUsd(Number(cost))}`,
      };
    }
    case 'pipeline.waiting':
    case 'pipeline.decided':
    case 'pipeline.completed':
    case 'pipeline.abandoned': {
      const title = pipelines.get(Number(r.entity_id)) ?? null;
      const pipeline = str(p.workspace);
      const checkpoint = str(p.checkpoint);
      const at = { ...base, title, agent: null, pipeline, checkpoint };
      if (r.kind === 'pipeline.waiting')
        return { ...at, kind: 'checkpoint.waiting', text: `${checkpoint ?? 'a checkpoint'} waits for a person` };
      if (r.kind === 'pipeline.decided') {
        const by = str(p.by) ?? r.os_user;
        return {
          ...at,
          kind: 'checkpoint.decided',
          by,
          text: `${checkpoint ?? 'checkpoint'}: ${str(p.decision) ?? 'decided'}${by ? ` by ${by}` : ''}`,
        };
      }
      return { ...at, kind: 'pipeline.ended', text: r.kind === 'pipeline.completed' ? 'completed' : 'abandoned' };
    }
    case 'handoff.created': {
      const from = str(p.from);
      const to = str(p.to);
      return {
        ...base,
        kind: 'handoff.created',
        agent: from ?? base.agent,
        text: `handoff-${r.entity_id} from ${from ?? '?'} to ${to ?? 'any agent'}`,
      };
    }
    case 'handoff.accepted': {
      const agent = str(p.agent);
      return {
        ...base,
        kind: 'handoff.accepted',
        agent: agent ?? base.agent,
        text: `handoff-${r.entity_id} accepted by ${agent ?? '?'}`,
      };
    }
    default:
      return null;
  }
}
