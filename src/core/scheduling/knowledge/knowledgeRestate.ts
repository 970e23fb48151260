import type { AsyncSqlWriter } from '../../ports/store';
import type { KgTripleInput, Provenance } from './knowledgeGraph';

/**
 * A fed source states its facts again (a workflow or a pipeline that changed since it was fed):
 * what it no longer states loses the source's provenance, and a triple nothing cites any more
 * goes — the same rule as a Memory Bank entry's facts. A triple another source or an agent also
 * cites keeps its other provenance and stays. The triples the source still states are then
 * inserted as usual (the caller's insert). Runs in the caller's write transaction.
 */
export async function restateSource(
  tx: AsyncSqlWriter,
  ref: Pick<Provenance, 'sourceId' | 'type'>,
  triples: readonly KgTripleInput[],
  now: number,
): Promise<number> {
  const kept = new Set(triples.map((t) => keyOf(t.subject.trim(), t.predicate.trim(), t.object.trim())));
  // The provenance JSON names the source: LIKE narrows, the parsed JSON decides (LIKE ignores case on SQLite).
  const needle = `%${escapeLike(JSON.stringify(ref.sourceId))}%`;
  const cited = await tx.all<{
    id: number;
    subject: string;
    predicate: string;
    object: string;
    provenance: string;
    revision: number;
  }>(
    "SELECT id, subject, predicate, object, provenance, revision FROM kg_triples WHERE provenance LIKE ? ESCAPE '\\'",
    [needle],
  );
  let removed = 0;
  for (const row of cited) {
    const provenance = parseProvenance(row.provenance);
    const rest = provenance.filter((p) => !(p.sourceId === ref.sourceId && p.type === ref.type));
    if (rest.length === provenance.length || kept.has(keyOf(row.subject, row.predicate, row.object))) continue;
    if (rest.length === 0) {
      await tx.run('DELETE FROM kg_triples WHERE id = ?', [row.id]);
      removed += 1;
    } else {
      const json = JSON.stringify(rest);
      // kg_triples.size follows the provenance it holds.
      await tx.run('UPDATE kg_triples SET provenance = ?, size = size + ?, updated_at = ?, revision = ? WHERE id = ?', [
        json,
        json.length - row.provenance.length,
        now,
        Number(row.revision) + 1,
        row.id,
      ]);
    }
  }
  return removed;
}

function keyOf(subject: string, predicate: string, object: string): string {
  return `${subject}\u0000${predicate}\u0000${object}`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function parseProvenance(json: string): Provenance[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value as Provenance[]) : [];
  } catch {
    return [];
  }
}
