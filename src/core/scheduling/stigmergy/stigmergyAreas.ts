import { patternsOverlap } from '../../tasks/scopeOverlap';
import { compareText, pointValues, removeMarks } from './stigmergyField';
import type { StigChange, StigmergyConfig, StigmergyField, StigPoint } from './stigmergyField';
import type { PheromoneBounds } from './stigmergySnapshot';
import { markTypeTask, RollUpTree } from './stigmergyRollUp';
import type { PathPressure, WeightedMark } from './stigmergyRollUp';

export { markTypeTask };
export type { PathPressure };

/**
 * What the field means for a workspace: marks sit on the paths and write-scope globs of running
 * tasks, one type per (kind, task) — `scope:task-12` for its declared areas, `changed:task-12`
 * for the files it changed so far — so the marks of a task can be removed when it ends, folders
 * can show the pressure under them, and a task's areas can be asked how busy they are.
 */

/** Kinds of marks a running task leaves. */
export type TaskMarkKind = 'scope' | 'changed';

/** The mark type of a task (`scope:task-12`). */
export function taskMarkType(taskKey: string, kind: TaskMarkKind): string {
  return `${kind}:${taskKey.trim().toLowerCase()}`;
}

/** Removes every mark of a task (when it ends). */
export function clearTaskMarks(
  field: StigmergyField,
  taskKey: string,
  now: number,
): { field: StigmergyField; changes: StigChange[] } {
  const key = taskKey.trim().toLowerCase();
  return removeMarks(field, (p) => markTypeTask(p.type) === key, now);
}

/**
 * Rolls marks up to folders (stigmergyRollUp.ts): a mark on `src/auth/login.ts` counts for that
 * file, `src/auth` and `src`; a mark on a glob counts for the folder its literal part names
 * (`src/auth/**` → `src/auth`) and above. Sorted by path.
 */
export function rollUpToFolders(field: StigmergyField): PathPressure[] {
  return rollUpMarks(field.config, [...pointValues(field)]);
}

/**
 * The roll-up of some live marks (faded, in any order — straight from the store or the field):
 * one new tree, sums in the tree's order, so the same marks give the same answer to the last bit.
 */
export function rollUpMarks(config: StigmergyConfig, marks: readonly StigPoint[]): PathPressure[] {
  const byNode = new Map<string, WeightedMark[]>();
  for (const p of marks) {
    const group = byNode.get(p.node_id);
    const mark = { type: p.type, weight: p.intensity };
    if (group) group.push(mark);
    else byNode.set(p.node_id, [mark]);
  }
  const tree = new RollUpTree(config);
  tree.load(byNode);
  return tree.list();
}

/** How busy some areas are: every node whose path or glob may overlap one of them. */
export interface AreaPressure {
  /** Sum of the totals of those nodes. */
  total: number;
  /** Highest of them (0 when none). */
  max: number;
  nodes: { node_id: string; intensity: number; types: string[] }[];
}

/**
 * The pressure on a task's areas (paths or globs): nodes are matched with the sound overlap rule,
 * so a node is counted whenever it could touch one of the areas. Marks of `ignoreTask` (the task
 * asking) are left out. Nodes sorted by intensity, highest first.
 */
export function pressureOnAreas(field: StigmergyField, areas: readonly string[], ignoreTask?: string): AreaPressure {
  const ignore = ignoreTask?.trim().toLowerCase();
  const perNode = new Map<string, { intensity: number; types: string[] }>();
  for (const p of pointValues(field)) {
    if (ignore && markTypeTask(p.type) === ignore) continue;
    const entry = perNode.get(p.node_id) ?? { intensity: 0, types: [] };
    entry.intensity += p.intensity;
    entry.types.push(p.type);
    perNode.set(p.node_id, entry);
  }
  const nodes: AreaPressure['nodes'] = [];
  for (const [nodeId, e] of perNode) {
    if (!areas.some((a) => patternsOverlap(nodeId, a))) continue;
    const max = field.config.max_intensity;
    nodes.push({
      node_id: nodeId,
      intensity: max === null ? e.intensity : Math.min(max, e.intensity),
      types: e.types.sort(compareText),
    });
  }
  nodes.sort((a, b) => b.intensity - a.intensity || compareText(a.node_id, b.node_id));
  return { total: nodes.reduce((s, n) => s + n.intensity, 0), max: nodes[0]?.intensity ?? 0, nodes };
}

/**
 * Bounds for a contract-net call on these areas: the field's min and max with the ceiling set to
 * the highest pressure on the areas, so pheromone_pressure reads 1 on quiet areas and grows with
 * the pressure other tasks put on them.
 */
export function areaBounds(field: StigmergyField, areas: readonly string[], ignoreTask?: string): PheromoneBounds {
  const { max } = pressureOnAreas(field, areas, ignoreTask);
  const { min_intensity, max_intensity } = field.config;
  return { min_intensity, max_intensity, normalisation_ceiling: Math.max(min_intensity, max) };
}
