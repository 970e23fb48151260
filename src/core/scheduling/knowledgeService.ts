import { createHash } from 'node:crypto';
import { readLatest } from '../coordination/graphStore';
import { workflowKey } from '../ids';
import type { AsyncSqlReader, AsyncSqlWriter, LedgerEngine } from '../ports';
import { createKnowledgeGraph, exportTriples, insertTriples, queryTriples } from './knowledgeGraph';
import type { KgPattern, KgTriple, KgTripleInput, KnowledgeGraph } from './knowledgeGraph';
import { isWorkflowFinished, workflowTriples } from './knowledgeExtractors';
import type { TaskFacts } from './knowledgeExtractors';
import { suggestPlan } from './planSuggestion';
import type { PlanSuggestion, SuggestContext } from './planSuggestion';
import type { KgExportResult, KgInsertResult, KgQueryResult } from './knowledgeContracts';
import { errorMessage } from '../errors';

/**
 * The knowledge graph over the asynchronous store port (kg_triples, migration v11). Triples
 * agents insert sit beside the ones the ledger yields by itself: every finished workflow (all
 * its tasks done, failed or cancelled, one done) becomes a plan — its goal `includes` each task
 * that finished well, `task:task-N depends_on task-M` from its plan graph's edges — fed again
 * only when the workflow changed (kg_feeds keeps a fingerprint per workflow).
 */

interface TripleRow {
  id: number;
  subject: string;
  predicate: string;
  object: string;
  source: string | null;
  provenance: string;
  confidence: number;
  inserted_at: number;
  updated_at: number;
  revision: number;
}

const tripleColumns = 'id, subject, predicate, object, source, provenance, confidence, inserted_at, updated_at, revision';

function toTriple(row: TripleRow): KgTriple {
  const id = Number(row.id);
  return {
    id: `kg-${id}`,
    subject: row.subject,
    predicate: row.predicate,
    object: row.object,
    source: row.source,
    provenance: JSON.parse(row.provenance) as KgTriple['provenance'],
    confidence: Number(row.confidence),
    inserted_at: Number(row.inserted_at),
    updated_at: Number(row.updated_at),
    revision: Number(row.revision),
    ordinal: id,
  };
}

const keyOf = (t: { subject: string; predicate: string; object: string }) => `${t.subject}\u0000${t.predicate}\u0000${t.object}`;

export class KnowledgeService {
  constructor(
    private readonly engine: LedgerEngine,
    private readonly clock: () => number = Date.now,
  ) {}

  /** kg_insert: every triple or none (one bad triple refuses the call: E-KG-BAD-TRIPLE). */
  async insert(triples: readonly KgTripleInput[]): Promise<KgInsertResult> {
    insertTriples(createKnowledgeGraph(), triples, this.clock()); // validates before the write
    return this.engine.write((tx) => insertIn(tx, triples, this.clock()));
  }

  /** kg_query: a motif with * wildcards, paged by insertion order. */
  async query(pattern: KgPattern, options: { limit?: number; order?: 'asc' | 'desc'; cursor?: number }): Promise<KgQueryResult> {
    await this.catchUp();
    return queryTriples(await this.graph(), pattern, options);
  }

  /** kg_export: the whole graph, paged. */
  async export(options: { limit?: number; cursor?: number }): Promise<KgExportResult> {
    await this.catchUp();
    return exportTriples(await this.graph(), options);
  }

  /** kg_suggest_plan: fragments of the plan recorded for the goal, with coverage and rationale. */
  async suggestPlan(goal: string, context: SuggestContext = {}): Promise<PlanSuggestion> {
    await this.catchUp();
    return suggestPlan(await this.graph(), goal, context);
  }

  /** Every triple as a graph. */
  async graph(): Promise<KnowledgeGraph> {
    const rows = await this.engine.read((db) => db.all<TripleRow>(`SELECT ${tripleColumns} FROM kg_triples ORDER BY id`));
    return createKnowledgeGraph(rows.map(toTriple));
  }

  /**
   * Feeds what finished since the last call before a read. Best effort: a ledger this process
   * may not write (read-only) still answers from the triples already stored.
   */
  private async catchUp(): Promise<void> {
    await this.feedFromLedger().catch((err: unknown) => console.error('[agent-ledger] could not add finished workflows to the knowledge graph:', errorMessage(err)));
  }

  /** Turns finished workflows that are new or changed since they were last fed into triples; how many were fed. */
  async feedFromLedger(): Promise<number> {
    const pending = await this.engine.read((db) => pendingWorkflows(db));
    if (pending.length === 0) return 0;
    return this.engine.write(async (tx) => {
      const now = this.clock();
      const again = await pendingWorkflows(tx); // the same check in the transaction: another process may have fed them
      for (const wf of again) {
        const triples = workflowTriples({ workflow: { id: wf.id, name: wf.name }, tasks: wf.tasks, dependencies: await planDependencies(tx, wf.id) });
        if (triples.length > 0) await insertIn(tx, triples, now);
        await tx.run('INSERT INTO kg_feeds (source_key, fingerprint, fed_at) VALUES (?, ?, ?) ON CONFLICT (source_key) DO UPDATE SET fingerprint = excluded.fingerprint, fed_at = excluded.fed_at', [
          workflowKey(wf.id),
          wf.fingerprint,
          now,
        ]);
      }
      return again.length;
    });
  }
}

async function insertIn(tx: AsyncSqlWriter, inputs: readonly KgTripleInput[], now: number): Promise<KgInsertResult> {
  const existing: KgTriple[] = [];
  const seen = new Set<string>();
  for (const t of inputs) {
    const probe = { subject: t.subject.trim(), predicate: t.predicate.trim(), object: t.object.trim() };
    if (seen.has(keyOf(probe))) continue;
    seen.add(keyOf(probe));
    const row = await tx.get<TripleRow>(`SELECT ${tripleColumns} FROM kg_triples WHERE subject = ? AND predicate = ? AND object = ?`, [probe.subject, probe.predicate, probe.object]);
    if (row) existing.push(toTriple(row));
  }
  const before = new Map(existing.map((t) => [keyOf(t), t]));
  const outcome = insertTriples(createKnowledgeGraph(existing), inputs, now);
  const stored = new Map<string, KgTriple>();
  for (const [key, t] of outcome.kg.triples) {
    const old = before.get(key);
    if (old && old.revision === t.revision && old.updated_at === t.updated_at) {
      stored.set(key, old);
      continue;
    }
    const values = [t.source, JSON.stringify(t.provenance), t.confidence, t.updated_at, t.revision];
    if (old) {
      await tx.run('UPDATE kg_triples SET source = ?, provenance = ?, confidence = ?, updated_at = ?, revision = ? WHERE id = ?', [...values, old.ordinal]);
      stored.set(key, { ...t, id: old.id, ordinal: old.ordinal });
    } else {
      const id = await tx.insert('INSERT INTO kg_triples (subject, predicate, object, source, provenance, confidence, updated_at, revision, inserted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
        t.subject,
        t.predicate,
        t.object,
        ...values,
        t.inserted_at,
      ]);
      stored.set(key, { ...t, id: `kg-${id}`, ordinal: id });
    }
  }
  const total = await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM kg_triples');
  if (outcome.created + outcome.updated > 0) {
    await tx.insert('INSERT INTO events (ts, kind, entity, entity_id, payload) VALUES (?, ?, ?, ?, ?) RETURNING seq', [
      new Date(now).toISOString(),
      'knowledge.inserted',
      'knowledge',
      'kg',
      JSON.stringify({ created: outcome.created, updated: outcome.updated, unchanged: outcome.unchanged }),
    ]);
  }
  return {
    inserted: outcome.inserted.map((t) => stored.get(keyOf(t)) ?? t),
    created: outcome.created,
    updated: outcome.updated,
    unchanged: outcome.unchanged,
    total: Number(total?.n ?? 0),
  };
}

interface PendingWorkflow {
  id: number;
  name: string;
  tasks: TaskFacts[];
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

/** Finished workflows whose tasks changed since they were last fed. */
async function pendingWorkflows(db: AsyncSqlReader): Promise<PendingWorkflow[]> {
  const workflows = await db.all<{ id: number; name: string }>("SELECT id, name FROM workflows WHERE kind = 'workflow' ORDER BY id");
  if (workflows.length === 0) return [];
  const rows = await db.all<TaskRow>(
    'SELECT id, workflow_id, parent_id, title, status, result, assignee, areas, duration_seconds, updated_at FROM tasks WHERE workflow_id IS NOT NULL ORDER BY id',
  );
  const fed = new Map((await db.all<{ source_key: string; fingerprint: string }>('SELECT source_key, fingerprint FROM kg_feeds')).map((r) => [r.source_key, r.fingerprint]));
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
    const fingerprint = createHash('sha256')
      .update(wf.name)
      .update(JSON.stringify(list.map((r) => [r.id, r.status, r.result, r.updated_at])))
      .digest('hex')
      .slice(0, 32);
    if (fed.get(workflowKey(Number(wf.id))) === fingerprint) continue;
    out.push({ id: Number(wf.id), name: wf.name, tasks, fingerprint });
  }
  return out;
}

/** depends_on edges of the workflow's plan graph (graph id `wf-<id>`), as task ids. */
async function planDependencies(db: AsyncSqlReader, workflowId: number): Promise<{ taskId: number; dependsOn: number }[]> {
  // Versions are stored as checkpoints and patches: readLatest rebuilds the committed graph.
  const latest = await readLatest(db, workflowKey(workflowId));
  if (!latest?.stored) return [];
  const graph = latest.graph;
  const id = (ref: string) => {
    const m = /^(?:task[-_:]?)?(\d+)$/i.exec(ref.trim());
    return m ? Number(m[1]) : null;
  };
  const out: { taskId: number; dependsOn: number }[] = [];
  for (const e of graph.edges ?? []) {
    if (e.label && e.label !== 'depends_on') continue;
    const from = id(e.from);
    const to = id(e.to);
    if (from !== null && to !== null) out.push({ taskId: to, dependsOn: from });
  }
  return out;
}
