import { createHash } from 'node:crypto';
import { workflowKey } from '../../ids';
import type { AsyncSqlReader, AsyncSqlWriter } from '../../ports/store';
import { readLatest } from '../../coordination/plans/graphStore';
import {
  isWorkflowFinished,
  memoryEntryTriples,
  memorySubject,
  mentionedTaskIds,
  pipelineTriples,
  workflowTriples,
} from './knowledgeExtractors';
import type { MemoryFacts, PipelineFacts, TaskFacts } from './knowledgeExtractors';
import type { KgTripleInput } from './knowledgeGraph';
import { restateSource } from './knowledgeRestate';

/**
 * What the ledger already knows, turned into triples once per change of its source (kg_feeds
 * keeps a fingerprint per source: `wf-<id>`, `pipeline:<folder>`, `memory:<category>/<id>`):
 * - a finished workflow (all its tasks done, failed or cancelled, one done) and its plan graph;
 * - a completed pipeline: its phases and the tasks of its task list;
 * - an active Memory Bank entry, linked to the tasks and goals it names.
 * Each step reads first (nothing pending: no write at all), then re-checks in the write, so two
 * processes feeding at once insert once. A source fed again states its facts again: what it no
 * longer states goes (knowledgeRestate.ts). A Memory Bank entry owns the triples of its subject
 * with source `memory`: when the entry changes, is archived or removed, they follow.
 */

/** Where the facts that are not in the store come from (files of this machine). */
export interface KnowledgeSources {
  /** A completed pipeline's phases and tasks (state.json and its flow), null when they cannot be read here. */
  pipeline?(workspace: string): Promise<PipelineFacts | null>;
  /** The Memory Bank's entries as the files are now (with their bodies). */
  memories?(): MemoryFacts[] | Promise<MemoryFacts[]>;
}

/** Inserts triples in the caller's transaction (KnowledgeService's insert). */
export type InsertTriples = (tx: AsyncSqlWriter, triples: readonly KgTripleInput[], now: number) => Promise<unknown>;

/** How many sources a feed turned into triples (or removed). */
export interface FeedCounts {
  workflows: number;
  pipelines: number;
  memories: number;
}

/** How many sources were fed, and how many triples they no longer state were removed. */
export interface Fed {
  fed: number;
  removed: number;
}

const digest = (...parts: unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);

async function fedFingerprints(db: AsyncSqlReader): Promise<Map<string, string>> {
  return new Map(
    (await db.all<{ source_key: string; fingerprint: string }>('SELECT source_key, fingerprint FROM kg_feeds')).map(
      (r) => [r.source_key, r.fingerprint],
    ),
  );
}

function recordFeed(tx: AsyncSqlWriter, key: string, fingerprint: string, now: number): Promise<unknown> {
  return tx.run(
    'INSERT INTO kg_feeds (source_key, fingerprint, fed_at) VALUES (?, ?, ?) ON CONFLICT (source_key) DO UPDATE SET fingerprint = excluded.fingerprint, fed_at = excluded.fed_at',
    [key, fingerprint, now],
  );
}

// ---------------------------------------------------------------------------------------
// Finished workflows
// ---------------------------------------------------------------------------------------

interface PendingWorkflow {
  id: number;
  name: string;
  tasks: TaskFacts[];
  dependencies: { taskId: number; dependsOn: number }[];
  fingerprint: string;
}

interface TaskRow {
  id: number;
  workflow_id: number;
  parent_id: number | null;
  title: string;
  status: string;
  result: string | null;
  assignee: string | null;
  areas: string;
  duration_seconds: number | null;
  updated_at: string;
}

/** Finished workflows whose tasks or plan graph changed since they were last fed. */
export async function pendingWorkflows(db: AsyncSqlReader): Promise<PendingWorkflow[]> {
  const workflows = await db.all<{ id: number; name: string }>(
    "SELECT id, name FROM workflows WHERE kind = 'workflow' ORDER BY id",
  );
  if (workflows.length === 0) return [];
  const rows = await db.all<TaskRow>(
    'SELECT id, workflow_id, parent_id, title, status, result, assignee, areas, duration_seconds, updated_at FROM tasks WHERE workflow_id IS NOT NULL ORDER BY id',
  );
  const fed = await fedFingerprints(db);
  const byWorkflow = new Map<number, TaskRow[]>();
  for (const r of rows) {
    const list = byWorkflow.get(Number(r.workflow_id)) ?? [];
    list.push(r);
    byWorkflow.set(Number(r.workflow_id), list);
  }
  const out: PendingWorkflow[] = [];
  for (const wf of workflows) {
    const list = byWorkflow.get(Number(wf.id)) ?? [];
    const tasks: TaskFacts[] = list.map((r) => ({
      id: Number(r.id),
      title: r.title,
      status: r.status,
      result: r.result,
      parentId: r.parent_id === null ? null : Number(r.parent_id),
      assignee: r.assignee,
      areas: JSON.parse(r.areas) as string[],
      durationSeconds: r.duration_seconds === null ? null : Number(r.duration_seconds),
    }));
    if (!isWorkflowFinished(tasks)) continue;
    const plan = await readLatest(db, workflowKey(Number(wf.id)));
    const version = plan?.stored ? plan.graph.graph_version : 0;
    const fingerprint = digest(
      wf.name,
      list.map((r) => [r.id, r.status, r.result, r.updated_at]),
      version,
    );
    if (fed.get(workflowKey(Number(wf.id))) === fingerprint) continue;
    out.push({
      id: Number(wf.id),
      name: wf.name,
      tasks,
      dependencies: planDependencies(plan?.graph.edges ?? []),
      fingerprint,
    });
  }
  return out;
}

/** depends_on edges of a workflow's plan graph (nodes `task-<id>`), as task ids. */
function planDependencies(
  edges: readonly { from: string; to: string; label: string | null }[],
): { taskId: number; dependsOn: number }[] {
  const id = (ref: string) => {
    const m = /^(?:task[-_:]?)?(\d+)$/i.exec(ref.trim());
    return m ? Number(m[1]) : null;
  };
  const out: { taskId: number; dependsOn: number }[] = [];
  for (const e of edges) {
    if (e.label && e.label !== 'depends_on') continue;
    const from = id(e.from);
    const to = id(e.to);
    if (from !== null && to !== null) out.push({ taskId: to, dependsOn: from });
  }
  return out;
}

/** Feeds the pending workflows; one fed before states its facts again (what it no longer states goes). */
export async function feedWorkflows(tx: AsyncSqlWriter, insert: InsertTriples, now: number): Promise<Fed> {
  const pending = await pendingWorkflows(tx);
  let removed = 0;
  for (const wf of pending) {
    const triples = workflowTriples({
      workflow: { id: wf.id, name: wf.name },
      tasks: wf.tasks,
      dependencies: wf.dependencies,
    });
    removed += await restateSource(tx, { sourceId: workflowKey(wf.id), type: 'db' }, triples, now);
    if (triples.length > 0) await insert(tx, triples, now);
    await recordFeed(tx, workflowKey(wf.id), wf.fingerprint, now);
  }
  return { fed: pending.length, removed };
}

// ---------------------------------------------------------------------------------------
// Completed pipelines
// ---------------------------------------------------------------------------------------

interface PipelineRow {
  workspace: string;
  spec_name: string;
  title: string;
  rev: number;
  updated_at: string;
  plan: string | null;
}

export interface PendingPipeline {
  key: string;
  row: PipelineRow;
  /** What the row says (title, revision, last change); the fingerprint adds what the feed read. */
  base: string;
}

/**
 * A pipeline's fingerprint: its row and what the feed read — `files:<row>:<facts>` when its
 * files were read here, `plan:<row>` when they were not (fed from its plan). One fed from its
 * plan is looked at again by every feed, so it is fed again once its files appear.
 */
export function pipelineFingerprint(p: Pick<PendingPipeline, 'base'>, facts: PipelineFacts | null | undefined): string {
  return facts ? `files:${p.base}:${digest(facts)}` : `plan:${p.base}`;
}

/** Completed pipelines not fed since their last change, or fed from their plan (their files may be here now). */
export async function pendingPipelines(db: AsyncSqlReader): Promise<PendingPipeline[]> {
  const rows = await db.all<PipelineRow>(
    "SELECT p.workspace, p.spec_name, p.title, p.rev, p.updated_at, w.plan FROM pipelines p LEFT JOIN workflows w ON w.id = p.workflow_id WHERE p.status = 'completed' ORDER BY p.id",
  );
  if (rows.length === 0) return [];
  const fed = await fedFingerprints(db);
  return rows
    .map((row) => ({ key: `pipeline:${row.workspace}`, row, base: digest(row.title, Number(row.rev), row.updated_at) }))
    .filter((p) => !fed.get(p.key)?.startsWith(`files:${p.base}:`));
}

/** The pending pipelines whose fingerprint, with what was read of them (`facts`), differs from the one fed. */
export async function unfedPipelines(
  db: AsyncSqlReader,
  facts: ReadonlyMap<string, PipelineFacts>,
): Promise<PendingPipeline[]> {
  const pending = await pendingPipelines(db);
  if (pending.length === 0) return [];
  const fed = await fedFingerprints(db);
  return pending.filter((p) => fed.get(p.key) !== pipelineFingerprint(p, facts.get(p.key)));
}

/**
 * A pipeline's facts when its state.json cannot be read on this machine (a team ledger, a
 * pipeline folder not committed): the phases its workflow planned, in order, all completed.
 */
export function pipelineFactsFromPlan(row: PipelineRow): PipelineFacts {
  let steps: { step?: unknown; goal?: unknown }[] = [];
  try {
    const plan = JSON.parse(row.plan ?? '[]') as unknown;
    if (Array.isArray(plan)) steps = plan as typeof steps;
  } catch {
    /* no plan: no phases */
  }
  const phases: Record<string, { status: string }> = {};
  const phaseLabels: Record<string, string> = {};
  for (const s of steps) {
    if (typeof s.step !== 'string' || !s.step) continue;
    phases[s.step] = { status: 'completed' };
    if (typeof s.goal === 'string' && s.goal.trim()) phaseLabels[s.step] = s.goal.trim();
  }
  return {
    spec_name: row.spec_name,
    title: row.title,
    status: 'completed',
    workspace: row.workspace,
    phases,
    phaseLabels,
  };
}

/**
 * Feeds the pipelines whose row or what was read of them changed (`facts`: read from their
 * files, by source key; one missing is fed from its plan); one fed before states its facts
 * again, under its folder as provenance whichever way it was read.
 */
export async function feedPipelines(
  tx: AsyncSqlWriter,
  insert: InsertTriples,
  now: number,
  facts: ReadonlyMap<string, PipelineFacts>,
): Promise<Fed> {
  const pending = await unfedPipelines(tx, facts);
  let removed = 0;
  for (const p of pending) {
    const read = facts.get(p.key);
    const triples = pipelineTriples({ ...(read ?? pipelineFactsFromPlan(p.row)), workspace: p.row.workspace });
    removed += await restateSource(tx, { sourceId: p.row.workspace, type: 'file' }, triples, now);
    if (triples.length > 0) await insert(tx, triples, now);
    await recordFeed(tx, p.key, pipelineFingerprint(p, read), now);
  }
  return { fed: pending.length, removed };
}

// ---------------------------------------------------------------------------------------
// Memory Bank entries
// ---------------------------------------------------------------------------------------

const memoryPrefix = 'memory:';

/** The triples each active entry yields now, by source key, with what they link to in this ledger. */
export async function memoryFeeds(
  db: AsyncSqlReader,
  entries: readonly MemoryFacts[],
): Promise<Map<string, { triples: KgTripleInput[]; fingerprint: string }>> {
  const active = entries.filter((e) => e.status === 'active');
  const mentioned = [...new Set(active.flatMap((e) => mentionedTaskIds(e)))];
  const tasks = new Set<number>();
  for (let i = 0; i < mentioned.length; i += 500) {
    const chunk = mentioned.slice(i, i + 500);
    const rows = await db.all<{ id: number }>(
      `SELECT id FROM tasks WHERE id IN (${chunk.map(() => '?').join(', ')})`,
      chunk,
    );
    for (const r of rows) tasks.add(Number(r.id));
  }
  const goalRows = await db.all<{ subject: string; label: string | null }>(
    "SELECT DISTINCT i.subject AS subject, l.object AS label FROM kg_triples i LEFT JOIN kg_triples l ON l.subject = i.subject AND l.predicate = 'label' WHERE i.predicate = 'includes'",
  );
  const goals = new Map<string, string>();
  for (const r of goalRows) if (!goals.has(r.subject) || r.label) goals.set(r.subject, r.label ?? r.subject);
  const targets = { hasTask: (id: number) => tasks.has(id), goals };
  const out = new Map<string, { triples: KgTripleInput[]; fingerprint: string }>();
  for (const e of active) {
    const triples = memoryEntryTriples(e, targets);
    out.set(memorySubject(e), {
      triples,
      fingerprint: digest(
        e.file,
        triples.map((t) => [t.predicate, t.object]),
      ),
    });
  }
  return out;
}

/** True when some entry is new, changed or gone since the last feed. */
export async function memoryPending(
  db: AsyncSqlReader,
  wanted: ReadonlyMap<string, { fingerprint: string }>,
): Promise<boolean> {
  const fed = [...(await fedFingerprints(db))].filter(([key]) => key.startsWith(memoryPrefix));
  return fed.length !== wanted.size || fed.some(([key, fp]) => wanted.get(key)?.fingerprint !== fp);
}

/** Brings the entries' triples to `wanted`: new and changed entries inserted, stale facts and gone entries removed. */
export async function feedMemories(
  tx: AsyncSqlWriter,
  insert: InsertTriples,
  now: number,
  wanted: ReadonlyMap<string, { triples: KgTripleInput[]; fingerprint: string }>,
): Promise<{ fed: number; removed: number }> {
  const fed = new Map([...(await fedFingerprints(tx))].filter(([key]) => key.startsWith(memoryPrefix)));
  let count = 0;
  let removed = 0;
  for (const [subject, want] of wanted) {
    if (fed.get(subject) === want.fingerprint) continue;
    const keep = new Set(want.triples.map((t) => `${t.predicate}\u0000${t.object}`));
    const stored = await tx.all<{ id: number; predicate: string; object: string }>(
      "SELECT id, predicate, object FROM kg_triples WHERE subject = ? AND source = 'memory'",
      [subject],
    );
    for (const row of stored) {
      if (keep.has(`${row.predicate}\u0000${row.object}`)) continue;
      await tx.run('DELETE FROM kg_triples WHERE id = ?', [row.id]);
      removed += 1;
    }
    if (want.triples.length > 0) await insert(tx, want.triples, now);
    await recordFeed(tx, subject, want.fingerprint, now);
    count += 1;
  }
  for (const subject of fed.keys()) {
    if (wanted.has(subject)) continue;
    removed += (await tx.run("DELETE FROM kg_triples WHERE subject = ? AND source = 'memory'", [subject])).changes;
    await tx.run('DELETE FROM kg_feeds WHERE source_key = ?', [subject]);
    count += 1;
  }
  return { fed: count, removed };
}
