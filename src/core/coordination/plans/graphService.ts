import { randomUUID } from 'node:crypto';
import type { AsyncSqlWriter, LedgerEngine } from '../../ports/store';
import { appendCoordinationEvent } from '../bus/coordinationEvents';
import type { Correlation } from '../../events/correlation';
import { coordinationError } from '../coordinationErrors';
import type { GraphBatchMutateInput, GraphMutationOperation } from './graphContracts';
import { diffGraphs } from './graphDiff';
import type { JsonPatchOperation } from './graphDiff';
import { acquireGraphLock, assertCanMutate, releaseGraphLock } from './graphLocks';
import type { GraphLock, UnlockResult } from './graphLocks';
import { planGraphBatchMutation, planGraphPatch } from './graphPatch';
import type { GraphSelectorInput } from './graphToolContracts';
import type { GraphInvariantReport } from './graphInvariants';
import { isValidUriSegment } from '../resources/scUris';
import { normaliseGraph } from './planGraph';
import type { PlanGraph } from './planGraph';
import type { GraphLimits } from './graphStore';
import { defaultLimits } from '../../limits/ledgerLimits';
import {
  commitVersion,
  committedVersion,
  deleteLock,
  emptyGraph,
  readLatest,
  readLock,
  readLockById,
  readVersion,
  storeLock,
} from './graphStore';
import type { StoredGraph } from './graphStore';
import { blockedTaskIds, dependenciesOf } from '../../tasks/taskDependencies';
import type { TaskDependencies } from '../../tasks/taskDependencies';
import { assertNoOtherTransaction } from './transactions/graphTransactions';
import { openTransactions } from './transactions/transactionStore';

/**
 * The stored plan graphs behind graph_batch_mutate, graph_diff, graph_patch, graph_lock and
 * graph_unlock, over the asynchronous port. Each change is one transaction that reads the
 * committed version and the lock, decides with the pure libraries (graphPatch, graphLocks) and
 * commits the new version with its event, so two processes never both commit on one version.
 * The `*InTransaction` methods run inside a write the caller opened (idempotency records commit
 * with the change).
 */
export interface GraphChangeMeta {
  owner?: string;
  note?: string;
  correlation: Correlation;
}

export interface GraphCommitResult {
  graph_id: string;
  base_version: number;
  committed_version: number;
  committed_at: number;
  changed: boolean;
  graph: PlanGraph;
}

function assertGraphId(graphId: string): void {
  if (!isValidUriSegment(graphId, true)) {
    throw coordinationError(
      'E-GRAPH-INVALID-INPUT',
      `graph id '${graphId}' cannot be used: no '/', '@', '?', '#', spaces or control characters`,
      { graph_id: graphId },
    );
  }
}

function notFound(graphId: string, version?: number): never {
  const what = version === undefined ? `graph '${graphId}'` : `version ${version} of graph '${graphId}'`;
  throw coordinationError('E-RES-NOT-FOUND', `${what} does not exist`, {
    graph_id: graphId,
    ...(version === undefined ? {} : { version }),
  });
}

export class GraphService {
  constructor(
    private readonly engine: LedgerEngine,
    private readonly clock: () => number = Date.now,
    private readonly limits: GraphLimits = defaultLimits,
  ) {}

  /** The committed graph (or a workflow's derived version 0); E-RES-NOT-FOUND when there is none. */
  async latest(graphId: string): Promise<StoredGraph> {
    return (await this.engine.read((db) => readLatest(db, graphId))) ?? notFound(graphId);
  }

  /** One version; version 0 is a workflow's plan before its first commit. */
  async version(graphId: string, version: number): Promise<StoredGraph> {
    const found = await this.engine.read(async (db) => {
      if (version === 0) {
        const latest = await readLatest(db, graphId);
        return latest && !latest.stored ? latest : null;
      }
      const stored = await readVersion(db, graphId, version);
      if (stored) return stored;
      const head = await committedVersion(db, graphId);
      if (head !== null && version > 0 && version < head)
        throw coordinationError(
          'E-RES-NOT-FOUND',
          `version ${version} of graph '${graphId}' is no longer kept: the newest ${this.limits.graphVersionsKept} versions are (graphVersionsKept, docs/limits.md)`,
          { graph_id: graphId, version, latest_version: head },
        );
      return null;
    });
    return found ?? notFound(graphId, version);
  }

  /** `graph_diff`: an RFC 6902 patch between two sides and which sections differ. */
  async diff(graphId: string, from: GraphSelectorInput, to: GraphSelectorInput) {
    const [a, b] = [await this.select(graphId, from), await this.select(graphId, to)];
    return { graph_id: graphId, from: a.summary, to: b.summary, ...diffGraphs(a.graph, b.graph) };
  }

  private async select(
    graphId: string,
    selector: GraphSelectorInput,
  ): Promise<{ graph: PlanGraph; summary: { source: 'latest' | 'version' | 'descriptor'; version: number | null } }> {
    if ('latest' in selector) {
      const g = await this.latest(graphId);
      return { graph: g.graph, summary: { source: 'latest', version: g.graph.graph_version } };
    }
    if ('version' in selector) {
      const g = await this.version(graphId, selector.version);
      return { graph: g.graph, summary: { source: 'version', version: g.graph.graph_version } };
    }
    const d = selector.graph;
    const graph = normaliseGraph(d, { graph_id: graphId });
    return { graph, summary: { source: 'descriptor', version: d.graph_version ?? null } };
  }

  /**
   * `graph_batch_mutate` inside the caller's transaction: every operation or none, checked
   * against `expected_version` and the lock; `changed: false` keeps the version and commit time.
   * A graph that does not exist yet starts empty at version 0 (`expected_version: 0` says "new").
   */
  async batchMutateInTransaction(
    tx: AsyncSqlWriter,
    input: Pick<GraphBatchMutateInput, 'graph_id' | 'operations' | 'expected_version'>,
    meta: GraphChangeMeta,
  ) {
    assertGraphId(input.graph_id);
    const now = this.clock();
    const base = (await readLatest(tx, input.graph_id)) ?? emptyGraph(input.graph_id);
    assertCanMutate(await readLock(tx, input.graph_id), meta.owner, now);
    const plan = planGraphBatchMutation(base.graph, {
      operations: input.operations as GraphMutationOperation[],
      expected_version: input.expected_version,
    });
    const committed = await this.commitIfChanged(tx, base, plan.graph, plan.changed, now, 'graph_batch_mutate', meta, {
      operations_applied: plan.operations_applied,
    });
    return {
      ...committed,
      operations_applied: plan.operations_applied,
      applied: plan.applied,
      owner: meta.owner ?? null,
      note: meta.note ?? null,
    };
  }

  /** `graph_patch` inside the caller's transaction: base_version, lock, RFC 6902 patch, invariants. */
  async patchInTransaction(
    tx: AsyncSqlWriter,
    input: {
      graph_id: string;
      patch: readonly JsonPatchOperation[];
      base_version?: number;
      enforce_invariants?: boolean;
    },
    meta: GraphChangeMeta,
  ): Promise<GraphCommitResult & { operations_applied: number; invariants: GraphInvariantReport | null }> {
    assertGraphId(input.graph_id);
    const now = this.clock();
    const base = (await readLatest(tx, input.graph_id)) ?? notFound(input.graph_id);
    assertCanMutate(await readLock(tx, input.graph_id), meta.owner, now);
    const plan = planGraphPatch(base.graph, input);
    const committed = await this.commitIfChanged(tx, base, plan.graph, plan.changed, now, 'graph_patch', meta, {
      operations_applied: plan.operations_applied,
    });
    return { ...committed, operations_applied: plan.operations_applied, invariants: plan.invariants };
  }

  private async commitIfChanged(
    tx: AsyncSqlWriter,
    base: StoredGraph,
    graph: PlanGraph,
    changed: boolean,
    now: number,
    tool: string,
    meta: GraphChangeMeta,
    summary: Record<string, unknown>,
  ): Promise<GraphCommitResult> {
    if (changed) {
      await commitVersion(
        tx,
        base,
        graph,
        {
          now,
          txId: randomUUID(),
          owner: meta.owner ?? null,
          note: meta.note ?? null,
          tool,
          correlation: meta.correlation,
          summary,
        },
        this.limits,
      );
    }
    return {
      graph_id: graph.graph_id,
      base_version: base.graph.graph_version,
      committed_version: graph.graph_version,
      committed_at: changed ? now : (base.committed_at ?? 0),
      changed,
      graph,
    };
  }

  /** What a ledger task depends on and what depends on it (task_get), from its workflow's plan graph. */
  dependencies(taskId: number): Promise<TaskDependencies> {
    return this.engine.read((db) => dependenciesOf(db, taskId));
  }

  /** Ledger tasks with a dependency not done yet (task_list ready). */
  blockedTasks(): Promise<Set<number>> {
    return this.engine.read((db) => blockedTaskIds(db));
  }

  /**
   * `graph_lock`: acquire, or refresh by the same holder (same lock_id); E-LOCK-HELD for another
   * holder, E-TX-OPEN while another owner's transaction on the graph is open.
   */
  lock(input: { graph_id: string; holder: string; ttl_ms?: number }, correlation: Correlation): Promise<GraphLock> {
    assertGraphId(input.graph_id);
    return this.engine.write(async (tx) => {
      const now = this.clock();
      const decision = acquireGraphLock(await readLock(tx, input.graph_id), { ...input, now, newLockId: randomUUID() });
      assertNoOtherTransaction(await openTransactions(tx, input.graph_id, now), input.holder, now);
      await storeLock(tx, decision.lock);
      await appendCoordinationEvent(tx, {
        kind: `graph.lock_${decision.outcome}`,
        now,
        entity: 'graph',
        entityId: input.graph_id,
        payload: { lock_id: decision.lock.lock_id, holder: decision.lock.holder, expires_at: decision.lock.expires_at },
        correlation: { ...correlation, graph_id: input.graph_id },
      });
      return decision.lock;
    });
  }

  /** `graph_unlock`: releases the lock (expired: true when it had lapsed); E-LOCK-NOT-FOUND otherwise. */
  unlock(lockId: string, correlation: Correlation): Promise<UnlockResult> {
    return this.engine.write(async (tx) => {
      const now = this.clock();
      const released = releaseGraphLock(await readLockById(tx, lockId), lockId, now);
      await deleteLock(tx, lockId);
      await appendCoordinationEvent(tx, {
        kind: 'graph.lock_released',
        now,
        entity: 'graph',
        entityId: released.graph_id,
        payload: { lock_id: lockId, holder: released.holder, expired: released.expired },
        correlation: { ...correlation, graph_id: released.graph_id },
      });
      return released;
    });
  }
}
