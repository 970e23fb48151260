import { coordinationError } from '../coordinationErrors';
import type { GraphMutationOperation, GraphMutationRecord } from './graphContracts';
import { applyGraphPatch } from './graphDiff';
import type { JsonPatchOperation } from './graphDiff';
import { assertGraphValid } from './graphInvariants';
import type { GraphInvariantReport } from './graphInvariants';
import { applyGraphMutations } from './graphMutations';
import { nextGraphVersion, sameGraphContent } from './planGraph';
import type { PlanGraph } from './planGraph';

/**
 * What `graph_patch` and `graph_batch_mutate` decide before a commit, as pure functions of
 * the committed graph: the version check, the new graph, its invariants and its version.
 * The caller checks the lock first (`assertCanMutate`), then stores `graph` when `changed`.
 */

/** Throws `E-TX-CONFLICT` unless `expected` is absent or the committed version. */
export function assertExpectedVersion(committed: PlanGraph, expected: number | undefined): void {
  if (expected === undefined || expected === committed.graph_version) return;
  throw coordinationError(
    'E-TX-CONFLICT',
    `graph '${committed.graph_id}' is at version ${committed.graph_version}, not ${expected}`,
    {
      graph_id: committed.graph_id,
      expected,
      found: committed.graph_version,
      hint: 'reload the latest committed graph before retrying',
    },
  );
}

export interface GraphCommitPlan {
  /** The graph to commit: same content as before and same version when nothing changed. */
  graph: PlanGraph;
  changed: boolean;
  base_version: number;
  committed_version: number;
}

export interface GraphPatchPlan extends GraphCommitPlan {
  operations_applied: number;
  /** The invariant report (always ok when returned), or null when invariants were off. */
  invariants: GraphInvariantReport | null;
}

/**
 * Applies a `graph_patch` to the committed graph: version check, RFC 6902 application,
 * invariants (acyclic unless `enforce_invariants` is false; structure always). Throws
 * `E-TX-CONFLICT`, `E-PATCH-INVALID`, `E-PATCH-CYCLE`, `E-GRAPH-INVALID-INPUT` or
 * `E-PATCH-INVARIANT-VIOLATION`.
 */
export function planGraphPatch(
  committed: PlanGraph,
  input: { patch: readonly JsonPatchOperation[]; base_version?: number; enforce_invariants?: boolean },
): GraphPatchPlan {
  assertExpectedVersion(committed, input.base_version);
  const enforce = input.enforce_invariants ?? true;
  const patched = applyGraphPatch(committed, input.patch);
  const report = assertGraphValid(patched, { enforceInvariants: enforce });
  const changed = !sameGraphContent(committed, patched);
  const version = nextGraphVersion(committed.graph_version, changed);
  return {
    graph: changed ? { ...patched, graph_version: version } : committed,
    changed,
    base_version: committed.graph_version,
    committed_version: version,
    operations_applied: input.patch.length,
    invariants: enforce ? report : null,
  };
}

export interface GraphBatchPlan extends GraphCommitPlan {
  applied: GraphMutationRecord[];
  operations_applied: number;
}

/**
 * Applies `graph_batch_mutate` operations to the committed graph: version check, the
 * operations, then every invariant. All or nothing: a throw leaves the committed graph as
 * it was; `changed: false` keeps the version.
 */
export function planGraphBatchMutation(
  committed: PlanGraph,
  input: { operations: readonly GraphMutationOperation[]; expected_version?: number },
): GraphBatchPlan {
  assertExpectedVersion(committed, input.expected_version);
  const result = applyGraphMutations(committed, input.operations);
  assertGraphValid(result.graph);
  return {
    graph: result.changed ? result.graph : committed,
    changed: result.changed,
    base_version: committed.graph_version,
    committed_version: result.graph.graph_version,
    applied: result.applied,
    operations_applied: result.applied.length,
  };
}
