import type { PlanGraph } from '../../coordination/plans/planGraph';
import { fragmentToPlanAddition } from './planFragments';
import type { HierGraph, PlanGraphPatchOperation } from './planFragments';

/**
 * A suggested fragment as a ready `graph_patch` call: pass `graph_id`, `patch` and
 * `base_version` as they are. A fragment task that names a ledger task of another workflow
 * (`task-12`) becomes the node `<goal>:task-12` (a `:` no pipeline or playbook id has): in a workflow's plan graph `task-<id>` means
 * that workflow's own task, and a dependency on another workflow's task would never be met.
 * Computed against the graph named in the call (nodes and edges it already has are skipped,
 * never overwritten, and `base_version` refuses the patch if the graph moved meanwhile), or,
 * when none is named, against an empty graph: then it fits any graph that has none of its nodes.
 */
export interface FragmentPatch {
  fragment_id: string;
  graph_id: string | null;
  base_version: number | null;
  /** Fragment task id → the plan-graph node the patch gives it. */
  node_ids: Record<string, string>;
  patch: PlanGraphPatchOperation[];
  /** Nodes and edges (`from->to`) the graph already has, left out of the patch. */
  skipped: { nodes: string[]; edges: string[] };
}

const ledgerTaskId = /^task-[1-9][0-9]{0,14}$/;

/** The plan-graph node id of a fragment task. */
export function planNodeId(fragmentNodeId: string, goal: string): string {
  return ledgerTaskId.test(fragmentNodeId) ? `${goal}:${fragmentNodeId}` : fragmentNodeId;
}

/** One ready patch per fragment, in fragment order. */
export function fragmentPatches(fragments: readonly HierGraph[], target: PlanGraph | null): FragmentPatch[] {
  const graph = target ?? { nodes: [], edges: [] };
  return fragments.map((fragment) => {
    const node_ids: Record<string, string> = {};
    for (const n of fragment.nodes) {
      const goal = typeof n.attributes.kg_goal === 'string' ? n.attributes.kg_goal : fragment.id;
      node_ids[n.id] = planNodeId(n.id, goal);
    }
    const addition = fragmentToPlanAddition(fragment, graph, node_ids);
    return {
      fragment_id: fragment.id,
      graph_id: target?.graph_id ?? null,
      base_version: target ? target.graph_version : null,
      node_ids,
      patch: addition.patch,
      skipped: addition.skipped,
    };
  });
}
