// The transaction service on both engines with a clock the test moves: expiry and renewal by use,
// and lapsed transactions' rows removed by a later write once they have answered E-TX-EXPIRED for
// TX_EXPIRED_KEPT_MS, each with a graph.tx_expired event.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphService } from '../../../../../../src/core/coordination/plans/graphService';
import { GraphTransactionService } from '../../../../../../src/core/coordination/plans/transactions/transactionService';
import {
  TX_EXPIRED_KEPT_MS,
  TX_OPEN_PER_GRAPH_MAX,
} from '../../../../../../src/core/coordination/plans/transactions/graphTransactions';
import { isCoordinationError } from '../../../../../../src/core/coordination/coordinationErrors';
import { LedgerError } from '../../../../../../src/core/errors';
import type { LedgerEngine } from '../../../../../../src/core/ports/store';
import { engineCases } from '../../../../store/engines/engineKit';

const correlation = { run_id: null, op_id: 'op', job_id: null, graph_id: null, node_id: null, child_id: null };

async function rows(engine: LedgerEngine): Promise<number> {
  return Number(
    (await engine.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM plan_graph_transactions')))?.n ?? 0,
  );
}

for (const engineCase of engineCases) {
  test(
    `graph transactions on ${engineCase.name}: renewed by use, expired when left, removed later with an event`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        let now = 5_000_000;
        const engine = await ledger.open();
        const txs = new GraphTransactionService(engine, () => now);
        const graphs = new GraphService(engine, () => now);
        const begin = (owner: string, ttl_ms: number) =>
          engine.write((tx) => txs.beginInTransaction(tx, { graph_id: 'g', owner, ttl_ms }, correlation));

        const left = await begin('ghost', 1_000);
        const used = await begin('alice', 1_000);
        now += 800;
        const applied = await txs.apply(
          { tx_id: used.tx_id, operations: [{ op: 'add_node', node: { id: 'a' } }] },
          correlation,
        );
        assert.equal(applied.expires_at, now + 1_000, 'tx_apply renews the lifetime');
        now += 500; // ghost's lapsed, alice's has 500 ms left
        await assert.rejects(
          txs.apply({ tx_id: left.tx_id, operations: [{ op: 'add_node', node: { id: 'b' } }] }, correlation),
          (e) => isCoordinationError(e, 'E-TX-EXPIRED'),
        );
        await assert.rejects(
          graphs.lock({ graph_id: 'g', holder: 'lead' }, correlation),
          (e) => isCoordinationError(e, 'E-TX-OPEN') && (e as LedgerError).data?.owner === 'alice',
        );
        const committed = await txs.commit(used.tx_id, correlation);
        assert.deepEqual([committed.version, committed.changed, committed.merged], [1, true, false]);
        assert.equal(await rows(engine), 1, "ghost's row stays to answer E-TX-EXPIRED");

        now += TX_EXPIRED_KEPT_MS;
        await begin('bob', 60_000);
        assert.equal(await rows(engine), 1, "a later write removed ghost's row, bob's is the one left");
        await assert.rejects(txs.commit(left.tx_id, correlation), (e) => isCoordinationError(e, 'E-TX-NOT-FOUND'));
        const expired = await engine.read((db) =>
          db.all<{ payload: string }>("SELECT payload FROM events WHERE kind = 'graph.tx_expired'"),
        );
        assert.deepEqual(
          expired.map((e) => (JSON.parse(e.payload) as { tx_id: string }).tx_id),
          [left.tx_id],
        );

        // At most TX_OPEN_PER_GRAPH_MAX open at once on one graph.
        for (let i = 1; i < TX_OPEN_PER_GRAPH_MAX; i++) await begin(`agent-${i}`, 60_000);
        await assert.rejects(begin('one-too-many', 60_000), (e) => LedgerError.is(e) && e.data?.error === 'E-QUOTA');
      } finally {
        await ledger.dispose();
      }
    },
  );
}
