import { validationError } from '../../errors';
import { compareText } from '../stigmergy/stigmergyField';

/**
 * The knowledge graph as plain data: triples (subject, predicate, object) with a source, a
 * confidence in [0, 1] and provenance, numbered in insertion order. Inserting an existing triple
 * updates it (new source and confidence, provenance merged, revision + 1), as the public
 * implementation's src/knowledge/knowledgeGraph.ts does — except that re-inserting exactly the
 * same facts changes nothing, so feeding the graph from the ledger again and again is idempotent.
 */

/** Kinds of provenance a triple can cite. */
export const provenanceTypes = ['url', 'file', 'db', 'kg', 'rag'] as const;
export type ProvenanceType = (typeof provenanceTypes)[number];

/** Where a fact comes from, precisely (a file span, a URL, a ledger record). */
export interface Provenance {
  sourceId: string;
  type: ProvenanceType;
  span?: [number, number];
  confidence?: number;
}

/** A stored triple, in the shape `kg_insert`, `kg_query` and `kg_export` return. */
export interface KgTriple {
  id: string;
  subject: string;
  predicate: string;
  object: string;
  source: string | null;
  provenance: Provenance[];
  confidence: number;
  inserted_at: number;
  updated_at: number;
  revision: number;
  ordinal: number;
}

/** A triple to insert. */
export interface KgTripleInput {
  subject: string;
  predicate: string;
  object: string;
  source?: string | null;
  confidence?: number | null;
  provenance?: Provenance[];
}

/** The graph: triples by (subject, predicate, object) and the last ordinal given. Treat as immutable. */
export interface KnowledgeGraph {
  readonly triples: ReadonlyMap<string, KgTriple>;
  readonly sequence: number;
}

/** A graph holding these triples (e.g. read back from storage). */
export function createKnowledgeGraph(triples: readonly KgTriple[] = []): KnowledgeGraph {
  const map = new Map<string, KgTriple>();
  let sequence = 0;
  for (const t of [...triples].sort((a, b) => a.ordinal - b.ordinal)) {
    map.set(tripleKey(t.subject, t.predicate, t.object), { ...t, provenance: t.provenance.map((p) => ({ ...p })) });
    sequence = Math.max(sequence, t.ordinal);
  }
  return { triples: map, sequence };
}

/** What an insert did. */
export interface KgInsertOutcome {
  kg: KnowledgeGraph;
  /** The stored form of every input, in input order. */
  inserted: KgTriple[];
  created: number;
  updated: number;
  /** Ours: inputs identical to what was stored (nothing changed). */
  unchanged: number;
  total: number;
}

/**
 * Inserts triples as one: all are checked first (subject, predicate and object must not be
 * blank: ValidationError with data.error = E-KG-BAD-TRIPLE), then applied in order.
 */
export function insertTriples(kg: KnowledgeGraph, inputs: readonly KgTripleInput[], now: number): KgInsertOutcome {
  const bad = inputs.findIndex((t) => !t.subject?.trim() || !t.predicate?.trim() || !t.object?.trim());
  if (bad >= 0) {
    const t = inputs[bad];
    throw validationError(`triple ${bad} needs a non-empty subject, predicate and object`, {
      error: 'E-KG-BAD-TRIPLE',
      index: bad,
      triple: { subject: t.subject, predicate: t.predicate, object: t.object },
    });
  }
  const triples = new Map(kg.triples);
  let sequence = kg.sequence;
  let created = 0;
  let updated = 0;
  let unchanged = 0;
  const inserted = inputs.map((input) => {
    const subject = input.subject.trim();
    const predicate = input.predicate.trim();
    const object = input.object.trim();
    const source = typeof input.source === 'string' && input.source.trim() ? input.source.trim() : null;
    const confidence = clampConfidence(input.confidence);
    const provenance = (input.provenance ?? []).map((p) => ({ ...p }));
    const key = tripleKey(subject, predicate, object);
    const existing = triples.get(key);
    if (!existing) {
      sequence += 1;
      created += 1;
      const fresh: KgTriple = {
        id: `kg-${sequence}`,
        subject,
        predicate,
        object,
        source,
        provenance: mergeProvenance([], provenance),
        confidence,
        inserted_at: now,
        updated_at: now,
        revision: 0,
        ordinal: sequence,
      };
      triples.set(key, fresh);
      return fresh;
    }
    const merged = mergeProvenance(existing.provenance, provenance);
    if (
      existing.source === source &&
      existing.confidence === confidence &&
      merged.length === existing.provenance.length
    ) {
      unchanged += 1;
      return existing;
    }
    updated += 1;
    const next: KgTriple = {
      ...existing,
      source,
      confidence,
      provenance: merged,
      updated_at: now,
      revision: existing.revision + 1,
    };
    triples.set(key, next);
    return next;
  });
  return { kg: { triples, sequence }, inserted, created, updated, unchanged, total: triples.size };
}

/** A motif: `*` in a field matches any run of characters; absent fields match anything. */
export interface KgPattern {
  subject?: string;
  predicate?: string;
  object?: string;
  source?: string;
  min_confidence?: number;
}

/**
 * Triples matching a motif, by ordinal (`asc` by default), at most `limit` after `cursor`
 * (an ordinal from a previous page's `next_cursor`). `total` counts the triples returned, as
 * in the public implementation.
 */
export function queryTriples(
  kg: KnowledgeGraph,
  pattern: KgPattern,
  options: { limit?: number; order?: 'asc' | 'desc'; cursor?: number } = {},
): { triples: KgTriple[]; total: number; next_cursor: number | null } {
  const desc = options.order === 'desc';
  const tests = (['subject', 'predicate', 'object'] as const).flatMap((field) => {
    const p = pattern[field];
    if (p === undefined) return [];
    const test = wildcard(p);
    return [(t: KgTriple) => test(t[field])];
  });
  if (pattern.source !== undefined) {
    const test = wildcard(pattern.source);
    tests.push((t) => test(t.source ?? ''));
  }
  if (pattern.min_confidence !== undefined) {
    const min = clampConfidence(pattern.min_confidence);
    tests.push((t) => t.confidence >= min);
  }
  const cursor = options.cursor;
  const all = [...kg.triples.values()]
    .filter((t) => cursor === undefined || (desc ? t.ordinal < cursor : t.ordinal > cursor))
    .filter((t) => tests.every((test) => test(t)))
    .sort((a, b) => (desc ? b.ordinal - a.ordinal : a.ordinal - b.ordinal));
  const page = options.limit && options.limit > 0 ? all.slice(0, options.limit) : all;
  return { triples: page, total: page.length, next_cursor: page.length > 0 ? page[page.length - 1].ordinal : null };
}

/** Every triple in insertion order, paged like `kg_query` (ours: `limit`, `cursor`). */
export function exportTriples(
  kg: KnowledgeGraph,
  options: { limit?: number; cursor?: number } = {},
): { format: 'triples'; triples: KgTriple[]; total: number; next_cursor: number | null } {
  const all = [...kg.triples.values()]
    .filter((t) => options.cursor === undefined || t.ordinal > options.cursor)
    .sort((a, b) => a.ordinal - b.ordinal);
  const page = options.limit && options.limit > 0 ? all.slice(0, options.limit) : all;
  const more = page.length < all.length;
  return {
    format: 'triples',
    triples: page,
    total: kg.triples.size,
    next_cursor: more ? page[page.length - 1].ordinal : null,
  };
}

/** Triples grouped by subject, each group in insertion order. */
export function triplesBySubject(kg: KnowledgeGraph): Map<string, KgTriple[]> {
  const groups = new Map<string, KgTriple[]>();
  for (const t of [...kg.triples.values()].sort((a, b) => a.ordinal - b.ordinal)) {
    const list = groups.get(t.subject);
    if (list) list.push(t);
    else groups.set(t.subject, [t]);
  }
  return groups;
}

/** A goal or plan name as a stable key: lower case, words joined by `-` (`Add OAuth login` → `add-oauth-login`). */
export function goalKey(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120);
}

function mergeProvenance(base: readonly Provenance[], extra: readonly Provenance[]): Provenance[] {
  const seen = new Set(base.map(provenanceKey));
  const out = [...base];
  for (const p of extra) {
    const key = provenanceKey(p);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ...p });
  }
  return out;
}

function provenanceKey(p: Provenance): string {
  return `${p.type}:${p.sourceId}:${p.span ? p.span.join('-') : ''}`;
}

function clampConfidence(value: number | null | undefined): number {
  if (typeof value !== 'number' || Number.isNaN(value)) return 1;
  return Math.min(1, Math.max(0, value));
}

function wildcard(pattern: string): (value: string) => boolean {
  if (!pattern.includes('*')) return (v) => v === pattern;
  const re = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`, 's');
  return (v) => re.test(v);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function tripleKey(subject: string, predicate: string, object: string): string {
  return `${subject}\u0000${predicate}\u0000${object}`;
}

/** Sorted copy with the code-unit order used everywhere in scheduling. */
export function sortedText(values: Iterable<string>): string[] {
  return [...values].sort(compareText);
}
