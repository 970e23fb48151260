// The knowledge graph's bounds on both engines: kg_insert adds nothing past the triple count, the
// characters of the graph or of one triple; what the ledger feeds by itself is never refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KnowledgeService } from '../../../../../src/core/scheduling/knowledge/knowledgeService';
import { LedgerError } from '../../../../../src/core/errors';
import { engineCases } from '../../../store/engines/engineKit';

const quota = (e: unknown, limit: string) =>
  LedgerError.is(e, 'QuotaExceeded') && e.data?.error === 'E-QUOTA' && e.data?.limit === limit;

for (const engineCase of engineCases) {
  test(
    `knowledge-graph bounds on ${engineCase.name}: triples, characters, one triple; a refused kg_insert adds nothing`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const limits = { kgTriples: 10, kgTotalBytes: 2_000, kgTripleBytes: 400 };
        const engine = await ledger.open();
        const kg = new KnowledgeService(engine, Date.now, {}, limits);
        const other = new KnowledgeService(await ledger.open(), Date.now, {}, limits); // another process
        const triple = (i: number, object = `o${i}`) => ({ subject: `s${i}`, predicate: 'is', object });

        await kg.insert([0, 1, 2, 3, 4, 5, 6, 7].map((i) => triple(i)));
        await assert.rejects(other.insert([triple(8), triple(9), triple(10)]), (e) => quota(e, 'kgTriples'));
        assert.equal((await other.export({})).triples.length, 8, 'the refused insert added nothing');
        await other.insert([triple(8), triple(9)]);
        await kg.insert([triple(0)]); // a triple already there adds nothing: accepted at the bound

        await assert.rejects(kg.insert([triple(11, 'x'.repeat(500))]), (e) => quota(e, 'kgTripleBytes'));
        // Provenance grows a triple too.
        const source = { sourceId: 'src/'.padEnd(250, 'a'), type: 'file' as const };
        await assert.rejects(
          kg.insert([{ ...triple(0), provenance: [source, { ...source, sourceId: source.sourceId + 'b' }] }]),
          (e) => quota(e, 'kgTripleBytes'),
        );

        const bytes = new KnowledgeService(engine, Date.now, {}, { ...limits, kgTriples: 100 });
        await bytes.insert([triple(20, 'y'.repeat(380)), triple(21, 'y'.repeat(380)), triple(22, 'y'.repeat(380))]);
        await assert.rejects(bytes.insert([triple(23, 'y'.repeat(380)), triple(24, 'y'.repeat(380))]), (e) =>
          quota(e, 'kgTotalBytes'),
        );
        const sizes = await engine.read((db) => db.get<{ chars: number }>('SELECT SUM(size) AS chars FROM kg_triples'));
        assert.ok(Number(sizes?.chars) <= 2_000 && Number(sizes?.chars) > 1_200, String(sizes?.chars));
      } finally {
        await ledger.dispose();
      }
    },
  );
}
