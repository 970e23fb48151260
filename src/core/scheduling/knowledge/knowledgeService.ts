import type { AsyncSqlWriter, LedgerEngine } from '../../ports/store';
import type { EventKind } from '../../events/eventKinds';
import { createKnowledgeGraph, exportTriples, insertTriples, queryTriples } from './knowledgeGraph';
import type { KgPattern, KgTriple, KgTripleInput, KnowledgeGraph } from './knowledgeGraph';
import {
  feedMemories,
  feedPipelines,
  feedWorkflows,
  memoryFeeds,
  memoryPending,
  pendingPipelines,
  pendingWorkflows,
  unfedPipelines,
} from './knowledgeFeeds';
import type { FeedCounts, KnowledgeSources } from './knowledgeFeeds';
import type { PipelineFacts } from './knowledgeExtractors';
import { suggestPlan } from './planSuggestion';
import type { PlanSuggestion, SuggestContext } from './planSuggestion';
import type { KgExportResult, KgInsertResult, KgQueryResult } from './knowledgeContracts';
import { errorMessage } from '../../errors';
import { readLatest } from '../../coordination/plans/graphStore';
import { coordinationError } from '../../coordination/coordinationErrors';
import { fragmentPatches } from './planPatches';
import type { FragmentPatch } from './planPatches';
import { callerTokenId } from '../../caller';
import { defaultLimits, limitReached } from '../../limits/ledgerLimits';
import type { LedgerLimits } from '../../limits/ledgerLimits';
import { runAsLedger } from '../../caller';

export type KnowledgeLimits = Pick<LedgerLimits, 'kgTripleBytes' | 'kgTriples' | 'kgTotalBytes'>;

/**
 * The knowledge graph over the asynchronous store port (kg_triples, migration v11). Triples
 * agents insert sit beside the ones the ledger yields by itself (knowledgeFeeds.ts): every
 * finished workflow and completed pipeline becomes a plan — its goal `includes` each task or
 * phase that finished well, `task:<id> depends_on <id>` from its plan graph or phase order —
 * and every active Memory Bank entry becomes facts linked to the tasks and goals it names. Each
 * source is fed again only when it changed (kg_feeds keeps a fingerprint per source), lazily:
 * before a kg_query, kg_export or kg_suggest_plan answers. kg_insert adds nothing past
 * kgTriples triples or kgTotalBytes characters, nor a triple longer than kgTripleBytes; what the
 * ledger feeds by itself is not refused (it is the ledger's own history, and not charged to the
 * caller whose read fed it).
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

const tripleColumns =
  'id, subject, predicate, object, source, provenance, confidence, inserted_at, updated_at, revision';

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

const keyOf = (t: { subject: string; predicate: string; object: string }) =>
  `${t.subject}\u0000${t.predicate}\u0000${t.object}`;

export class KnowledgeService {
  constructor(
    private readonly engine: LedgerEngine,
    private readonly clock: () => number = Date.now,
    private readonly sources: KnowledgeSources = {},
    private readonly limits: KnowledgeLimits = defaultLimits,
  ) {}

  /** kg_insert: every triple or none (one bad triple refuses the call: E-KG-BAD-TRIPLE; past a bound: E-QUOTA). */
  async insert(triples: readonly KgTripleInput[]): Promise<KgInsertResult> {
    insertTriples(createKnowledgeGraph(), triples, this.clock()); // validates before the write
    return this.engine.write((tx) => insertIn(tx, triples, this.clock(), this.limits));
  }

  /** kg_query: a motif with * wildcards, paged by insertion order. */
  async query(
    pattern: KgPattern,
    options: { limit?: number; order?: 'asc' | 'desc'; cursor?: number },
  ): Promise<KgQueryResult> {
    await this.catchUp();
    return queryTriples(await this.graph(), pattern, options);
  }

  /** kg_export: the whole graph, paged. */
  async export(options: { limit?: number; cursor?: number }): Promise<KgExportResult> {
    await this.catchUp();
    return exportTriples(await this.graph(), options);
  }

  /**
   * kg_suggest_plan: fragments of the plan recorded for the goal, with coverage and rationale,
   * and each fragment as a ready graph_patch (against `graphId`'s latest version when given).
   */
  async suggestPlan(
    goal: string,
    context: SuggestContext = {},
    graphId?: string,
  ): Promise<PlanSuggestion & { patches: FragmentPatch[] }> {
    await this.catchUp();
    const suggestion = suggestPlan(await this.graph(), goal, context);
    const target =
      graphId === undefined
        ? null
        : ((await this.engine.read((db) => readLatest(db, graphId))) ?? graphNotFound(graphId));
    return { ...suggestion, patches: fragmentPatches(suggestion.fragments, target?.graph ?? null) };
  }

  /** Every triple as a graph. */
  async graph(): Promise<KnowledgeGraph> {
    const rows = await this.engine.read((db) =>
      db.all<TripleRow>(`SELECT ${tripleColumns} FROM kg_triples ORDER BY id`),
    );
    return createKnowledgeGraph(rows.map(toTriple));
  }

  /**
   * Feeds what finished or changed since the last call, before a read. Best effort: a ledger
   * this process may not write (read-only) still answers from the triples already stored.
   */
  private async catchUp(): Promise<void> {
    await runAsLedger(() => this.feedFromLedger()).catch((err: unknown) =>
      console.error('[agent-ledger] could not add what the ledger knows to the knowledge graph:', errorMessage(err)),
    );
  }

  /** Turns finished workflows that are new or changed since they were last fed into triples; how many were fed. */
  async feedFromLedger(): Promise<number> {
    const counts = await this.feed();
    return counts.workflows + counts.pipelines + counts.memories;
  }

  /**
   * Feeds finished workflows, completed pipelines and the Memory Bank, in that order (entries
   * link to the goals plans brought). Nothing pending: reads only, no write.
   */
  async feed(): Promise<FeedCounts> {
    const insert = (tx: AsyncSqlWriter, triples: readonly KgTripleInput[], now: number) => insertIn(tx, triples, now);
    const counts: FeedCounts = { workflows: 0, pipelines: 0, memories: 0 };
    const [workflows, pipelines] = await this.engine.read(
      async (db) => [await pendingWorkflows(db), await pendingPipelines(db)] as const,
    );
    // The files of a pipeline are read outside the store's lock.
    const facts = new Map<string, PipelineFacts>();
    for (const p of pipelines) {
      const found = await this.sources.pipeline?.(p.row.workspace).catch(() => null);
      if (found) facts.set(p.key, found);
    }
    // A pipeline fed from its plan whose files are still not here is not fed again: no write.
    const unfed = pipelines.length > 0 ? await this.engine.read((db) => unfedPipelines(db, facts)) : [];
    if (workflows.length + unfed.length > 0) {
      await this.engine.write(async (tx) => {
        const now = this.clock();
        const fedWorkflows = await feedWorkflows(tx, insert, now);
        const fedPipelines = await feedPipelines(tx, insert, now, facts);
        counts.workflows = fedWorkflows.fed;
        counts.pipelines = fedPipelines.fed;
        const removed = fedWorkflows.removed + fedPipelines.removed;
        if (removed > 0) await appendKnowledgeEvent(tx, now, 'knowledge.removed', { removed });
      });
    }
    if (this.sources.memories) {
      const entries = await this.sources.memories();
      if (await this.engine.read(async (db) => memoryPending(db, await memoryFeeds(db, entries)))) {
        counts.memories = await this.engine.write(async (tx) => {
          const now = this.clock();
          // Computed again in the write: a plan fed meanwhile may add a goal an entry names.
          const { fed, removed } = await feedMemories(tx, insert, now, await memoryFeeds(tx, entries));
          if (removed > 0) await appendKnowledgeEvent(tx, now, 'knowledge.removed', { removed });
          return fed;
        });
      }
    }
    return counts;
  }
}

/** Characters of a triple as stored (kg_triples.size). */
function sizeOf(t: Pick<KgTriple, 'subject' | 'predicate' | 'object' | 'source' | 'provenance'>): number {
  return (
    t.subject.length +
    t.predicate.length +
    t.object.length +
    (t.source?.length ?? 0) +
    JSON.stringify(t.provenance).length
  );
}

/** Inserts or merges `inputs`; with `limits` (kg_insert), refuses what would pass them. */
async function insertIn(
  tx: AsyncSqlWriter,
  inputs: readonly KgTripleInput[],
  now: number,
  limits?: KnowledgeLimits,
): Promise<KgInsertResult> {
  const existing: KgTriple[] = [];
  const seen = new Set<string>();
  for (const t of inputs) {
    const probe = { subject: t.subject.trim(), predicate: t.predicate.trim(), object: t.object.trim() };
    if (seen.has(keyOf(probe))) continue;
    seen.add(keyOf(probe));
    const row = await tx.get<TripleRow>(
      `SELECT ${tripleColumns} FROM kg_triples WHERE subject = ? AND predicate = ? AND object = ?`,
      [probe.subject, probe.predicate, probe.object],
    );
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
    const size = sizeOf(t);
    if (limits && size > limits.kgTripleBytes)
      throw limitReached(
        'kgTripleBytes',
        `the triple (${t.subject.slice(0, 40)}, ${t.predicate}, ${t.object.slice(0, 40)}) would hold ${size} characters with its provenance, more than ${limits.kgTripleBytes}`,
        { subject: t.subject.slice(0, 200), predicate: t.predicate },
      );
    const values = [t.source, JSON.stringify(t.provenance), t.confidence, t.updated_at, t.revision, size];
    if (old) {
      await tx.run(
        'UPDATE kg_triples SET source = ?, provenance = ?, confidence = ?, updated_at = ?, revision = ?, size = ? WHERE id = ?',
        [...values, old.ordinal],
      );
      stored.set(key, { ...t, id: old.id, ordinal: old.ordinal });
    } else {
      const id = await tx.insert(
        'INSERT INTO kg_triples (subject, predicate, object, source, provenance, confidence, updated_at, revision, size, inserted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [t.subject, t.predicate, t.object, ...values, t.inserted_at],
      );
      stored.set(key, { ...t, id: `kg-${id}`, ordinal: id });
    }
  }
  const total = await tx.get<{ n: number; chars: number }>(
    'SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS chars FROM kg_triples',
  );
  if (limits && outcome.created > 0 && Number(total?.n ?? 0) > limits.kgTriples)
    throw limitReached(
      'kgTriples',
      `the knowledge graph would hold ${Number(total?.n)} triples, more than ${limits.kgTriples}: nothing of this kg_insert was added`,
    );
  if (limits && outcome.created + outcome.updated > 0 && Number(total?.chars ?? 0) > limits.kgTotalBytes)
    throw limitReached(
      'kgTotalBytes',
      `the knowledge graph would hold ${Number(total?.chars)} characters of triples, more than ${limits.kgTotalBytes}: nothing of this kg_insert was added`,
    );
  if (outcome.created + outcome.updated > 0) {
    await appendKnowledgeEvent(tx, now, 'knowledge.inserted', {
      created: outcome.created,
      updated: outcome.updated,
      unchanged: outcome.unchanged,
    });
  }
  return {
    inserted: outcome.inserted.map((t) => stored.get(keyOf(t)) ?? t),
    created: outcome.created,
    updated: outcome.updated,
    unchanged: outcome.unchanged,
    total: Number(total?.n ?? 0),
  };
}

async function appendKnowledgeEvent(
  tx: AsyncSqlWriter,
  now: number,
  kind: EventKind,
  payload: Record<string, number>,
): Promise<void> {
  await tx.insert(
    'INSERT INTO events (ts, kind, entity, entity_id, payload, token_id) VALUES (?, ?, ?, ?, ?, ?) RETURNING seq',
    [new Date(now).toISOString(), kind, 'knowledge', 'kg', JSON.stringify(payload), callerTokenId()],
  );
}

function graphNotFound(graphId: string): never {
  throw coordinationError('E-RES-NOT-FOUND', `graph '${graphId}' does not exist`, { graph_id: graphId });
}
