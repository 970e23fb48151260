import { randomUUID } from 'node:crypto';
import type { AsyncSqlWriter, LedgerEngine } from '../../../ports/store';
import type { Correlation } from '../../../events/correlation';
import { defaultLimits, limitReached } from '../../../limits/ledgerLimits';
import { appendCoordinationEvent } from '../../bus/coordinationEvents';
import { coordinationError } from '../../coordinationErrors';
import { isValidUriSegment } from '../../resources/scUris';
import { diffGraphs } from '../graphDiff';
import { assertGraphValid } from '../graphInvariants';
import { assertCanMutate } from '../graphLocks';
import { applyGraphMutations } from '../graphMutations';
import type { GraphMutationOperation } from '../graphContracts';
import { assertExpectedVersion } from '../graphPatch';
import { commitVersion, emptyGraph, readLatest, readLock } from '../graphStore';
import type { GraphLimits } from '../graphStore';
import { sameGraphContent } from '../planGraph';
import type { PlanGraph } from '../planGraph';
import {
  activeTransaction,
  assertRoomForTransaction,
  isTransactionActive,
  TX_EXPIRED_KEPT_MS,
  transactionTtl,
} from './graphTransactions';
import type { GraphTransaction } from './graphTransactions';
import { mergeTransaction } from './transactionMerge';
import {
  deleteTransaction,
  insertTransaction,
  openTransactions,
  readTransaction,
  removeLapsedTransactions,
  updateWorkingCopy,
} from './transactionStore';
import type { TxApplyInput, TxBeginInput } from './transactionContracts';

/**
 * tx_begin, tx_apply, tx_commit and tx_rollback over the asynchronous port. Each call is one
 * write that reads the transaction, the graph's lock and (for a commit) the committed graph,
 * decides with the pure modules beside it and writes the outcome with its event, so two servers
 * committing on one graph are serialised by the store and a refused call writes nothing.
 */
export class GraphTransactionService {
  constructor(
    private readonly engine: LedgerEngine,
    private readonly clock: () => number = Date.now,
    private readonly limits: GraphLimits = defaultLimits,
  ) {}

  /** `tx_begin` inside the caller's write (its idempotency record commits with it). */
  async beginInTransaction(
    tx: AsyncSqlWriter,
    input: Pick<TxBeginInput, 'graph_id' | 'expected_version' | 'owner' | 'note' | 'ttl_ms'>,
    correlation: Correlation,
  ) {
    if (!isValidUriSegment(input.graph_id, true))
      throw coordinationError(
        'E-GRAPH-INVALID-INPUT',
        `graph id '${input.graph_id}' cannot be used: no '/', '@', '?', '#', spaces or control characters`,
        { graph_id: input.graph_id },
      );
    const now = this.clock();
    const base = ((await readLatest(tx, input.graph_id)) ?? emptyGraph(input.graph_id)).graph;
    assertExpectedVersion(base, input.expected_version);
    assertCanMutate(await readLock(tx, input.graph_id), input.owner, now);
    assertRoomForTransaction(input.graph_id, (await openTransactions(tx, input.graph_id, now)).length);
    const size = JSON.stringify(base).length;
    if (size > this.limits.graphVersionBytes)
      throw limitReached(
        'graphVersionBytes',
        `plan graph '${input.graph_id}' is ${size} characters, more than a transaction's working copy may be (${this.limits.graphVersionBytes})`,
        { graph_id: input.graph_id },
      );
    await this.removeLapsed(tx, now, correlation);
    const ttl = transactionTtl(input.ttl_ms);
    const t: GraphTransaction = {
      tx_id: randomUUID(),
      graph_id: input.graph_id,
      base_version: base.graph_version,
      owner: input.owner ?? null,
      note: input.note ?? null,
      base,
      working: base,
      applies: 0,
      started_at: now,
      refreshed_at: now,
      expires_at: now + ttl,
      ttl_ms: ttl,
    };
    await insertTransaction(tx, t);
    await this.event(tx, 'graph.tx_begun', t, now, correlation, { base_version: t.base_version });
    return {
      tx_id: t.tx_id,
      graph_id: t.graph_id,
      base_version: t.base_version,
      owner: t.owner,
      note: t.note,
      expires_at: t.expires_at,
      started_at: t.started_at,
      graph: base,
    };
  }

  /** `tx_apply`: the operations on the working copy, all or none; the transaction lives ttl_ms more. */
  apply(input: Pick<TxApplyInput, 'tx_id' | 'operations'>, correlation: Correlation) {
    return this.engine.write(async (tx) => {
      const now = this.clock();
      const t = activeTransaction(await readTransaction(tx, input.tx_id), input.tx_id, now);
      assertCanMutate(await readLock(tx, t.graph_id), t.owner, now);
      const result = applyGraphMutations(t.working, input.operations as GraphMutationOperation[]);
      const working: PlanGraph = { ...result.graph, graph_version: t.base_version };
      const invariants = assertGraphValid(working);
      const size = JSON.stringify(working).length;
      if (size > this.limits.graphVersionBytes)
        throw limitReached(
          'graphVersionBytes',
          `the working copy of transaction ${t.tx_id} would be ${size} characters, more than ${this.limits.graphVersionBytes}`,
          { graph_id: t.graph_id, tx_id: t.tx_id },
        );
      const next = { ...t, working, applies: t.applies + 1, refreshed_at: now, expires_at: now + t.ttl_ms };
      await updateWorkingCopy(tx, next);
      const diff = diffGraphs(t.working, working);
      await this.event(tx, 'graph.tx_applied', next, now, correlation, {
        operations: input.operations.length,
        changed: diff.changed,
      });
      const pending = !sameGraphContent(t.base, working);
      return {
        tx_id: t.tx_id,
        graph_id: t.graph_id,
        base_version: t.base_version,
        owner: t.owner,
        note: t.note,
        expires_at: next.expires_at,
        preview_version: pending ? t.base_version + 1 : t.base_version,
        changed: diff.changed,
        applied: result.applied,
        diff: diff.operations,
        diff_summary: diff.summary,
        graph: working,
        invariants,
      };
    });
  }

  /**
   * `tx_commit`: the working copy becomes the next version — or, when the graph moved since the
   * transaction began, its changes written over the committed graph if they commute
   * (transactionMerge.ts); E-TX-CONFLICT otherwise, and the transaction stays open to be rolled
   * back or to expire.
   */
  commit(txId: string, correlation: Correlation) {
    return this.engine.write(async (tx) => {
      const now = this.clock();
      const t = activeTransaction(await readTransaction(tx, txId), txId, now);
      assertCanMutate(await readLock(tx, t.graph_id), t.owner, now);
      const head = (await readLatest(tx, t.graph_id)) ?? emptyGraph(t.graph_id);
      const { graph, merged } = mergeTransaction({ base: t.base, working: t.working, head: head.graph, txId });
      const changed = !sameGraphContent(head.graph, graph);
      const version = changed ? head.graph.graph_version + 1 : head.graph.graph_version;
      const committed: PlanGraph = { ...graph, graph_version: version };
      if (changed)
        await commitVersion(
          tx,
          head,
          committed,
          {
            now,
            txId: t.tx_id,
            owner: t.owner,
            note: t.note,
            tool: 'tx_commit',
            correlation: { ...correlation, graph_id: t.graph_id },
            summary: { merged, transaction_base_version: t.base_version },
          },
          this.limits,
        );
      await deleteTransaction(tx, t.tx_id);
      await this.event(tx, 'graph.tx_committed', t, now, correlation, { version, changed, merged });
      await this.removeLapsed(tx, now, correlation);
      return {
        tx_id: t.tx_id,
        graph_id: t.graph_id,
        base_version: t.base_version,
        version,
        committed_at: changed ? now : (head.committed_at ?? 0),
        changed,
        merged,
        graph: changed ? committed : head.graph,
      };
    });
  }

  /** `tx_rollback`: the transaction ends with nothing committed; a lapsed one is removed and says expired. */
  rollback(txId: string, correlation: Correlation) {
    return this.engine.write(async (tx) => {
      const now = this.clock();
      const t = await readTransaction(tx, txId);
      if (!t) activeTransaction(t, txId, now);
      const found = t as GraphTransaction;
      const expired = !isTransactionActive(found, now);
      await deleteTransaction(tx, txId);
      await this.event(tx, 'graph.tx_rolled_back', found, now, correlation, { expired });
      return {
        tx_id: found.tx_id,
        graph_id: found.graph_id,
        version: found.base_version,
        rolled_back_at: now,
        expired,
        snapshot: found.base,
      };
    });
  }

  /** Rows of transactions that lapsed more than TX_EXPIRED_KEPT_MS ago go, each with a `graph.tx_expired` event. */
  private async removeLapsed(tx: AsyncSqlWriter, now: number, correlation: Correlation): Promise<void> {
    for (const gone of await removeLapsedTransactions(tx, now - TX_EXPIRED_KEPT_MS)) {
      await appendCoordinationEvent(tx, {
        kind: 'graph.tx_expired',
        now,
        entity: 'graph',
        entityId: gone.graph_id,
        payload: { tx_id: gone.tx_id, owner: gone.owner, expires_at: gone.expires_at },
        correlation: { ...correlation, graph_id: gone.graph_id },
      });
    }
  }

  private event(
    tx: AsyncSqlWriter,
    kind: `graph.tx_${string}`,
    t: Pick<GraphTransaction, 'tx_id' | 'graph_id' | 'owner' | 'expires_at'>,
    now: number,
    correlation: Correlation,
    extra: Record<string, unknown>,
  ): Promise<number> {
    return appendCoordinationEvent(tx, {
      kind,
      now,
      entity: 'graph',
      entityId: t.graph_id,
      payload: { tx_id: t.tx_id, owner: t.owner, expires_at: t.expires_at, ...extra },
      correlation: { ...correlation, graph_id: t.graph_id },
    });
  }
}
