import { normaliseGraph } from '../../../../../src/core/coordination/plans/planGraph';
import type { PlanGraph } from '../../../../../src/core/coordination/plans/planGraph';
import type { seeded } from './random';

/** A random DAG: node i may depend on any earlier node, so there is never a cycle. */
export function randomDag(r: ReturnType<typeof seeded>, nodes: number, edgesPerNode = 2, graphId = 'g'): PlanGraph {
  const ids = Array.from({ length: nodes }, (_, i) => `t${String(i).padStart(4, '0')}`);
  const edges: Array<{ from: string; to: string; label: string }> = [];
  const seen = new Set<string>();
  for (let i = 1; i < nodes; i++) {
    for (let k = 0; k < r.int(edgesPerNode + 1); k++) {
      const j = r.int(i);
      const key = `${j}>${i}`;
      if (seen.has(key)) continue;
      seen.add(key);
      edges.push({ from: ids[j], to: ids[i], label: 'depends_on' });
    }
  }
  return normaliseGraph({
    graph_id: graphId,
    name: 'plan',
    metadata: { owner: 'bench' },
    nodes: ids.map((id, i) => ({
      id,
      label: `Task ${i}`,
      attributes: { status: r.pick(['open', 'done', 'in_progress']), title: `Task ${i}` },
    })),
    edges,
  });
}

/** A random edit of `g` that stays a valid DAG (new edges go from a smaller id to a larger one). */
export function randomEdit(r: ReturnType<typeof seeded>, g: PlanGraph, changes: number): PlanGraph {
  const t = structuredClone(g);
  for (let m = 0; m < changes; m++) {
    const x = r.next();
    if (x < 0.3 && t.nodes.length) r.pick(t.nodes).attributes.status = r.pick(['done', 'failed', 'open']);
    else if (x < 0.45 && t.nodes.length) {
      const id = r.pick(t.nodes).id;
      t.nodes = t.nodes.filter((n) => n.id !== id);
      t.edges = t.edges.filter((e) => e.from !== id && e.to !== id);
    } else if (x < 0.6) t.nodes.push({ id: `z${m}_${r.int(1e6)}`, label: null, attributes: { status: 'open' } });
    else if (x < 0.7 && t.edges.length) t.edges.splice(r.int(t.edges.length), 1);
    else if (x < 0.8 && t.nodes.length > 1) {
      const [a, b] = [r.pick(t.nodes).id, r.pick(t.nodes).id].sort();
      if (a !== b && !t.edges.some((e) => e.from === a && e.to === b))
        t.edges.push({ from: a, to: b, label: 'depends_on', attributes: { weight: r.int(5) } });
    } else if (x < 0.9) t.metadata[`k${r.int(5)}`] = r.pick([1, 'x', true]);
    else if (t.nodes.length) r.pick(t.nodes).label = r.pick([null, 'renamed', 'Task ~/odd']);
  }
  return normaliseGraph(t, t);
}
