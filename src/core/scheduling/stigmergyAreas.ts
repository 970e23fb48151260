import { patternsOverlap } from './scopeOverlap';
import { isGlobPattern, literalHead, shapeOf } from './scopePatterns';
import { clampIntensity, compareText, pointValues, removeMarks } from './stigmergyField';
import type { StigChange, StigmergyConfig, StigmergyField, StigPoint } from './stigmergyField';
import type { PheromoneBounds } from './stigmergySnapshot';

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

/** The task a mark type belongs to (`task-12` for `changed:task-12`), or null for other types. */
export function markTypeTask(type: string): string | null {
  const m = /^(?:scope|changed):(.+)$/.exec(type);
  return m ? m[1] : null;
}

/** Removes every mark of a task (when it ends). */
export function clearTaskMarks(field: StigmergyField, taskKey: string, now: number): { field: StigmergyField; changes: StigChange[] } {
  const key = taskKey.trim().toLowerCase();
  return removeMarks(field, (p) => markTypeTask(p.type) === key, now);
}

/** Pressure on one file or folder, for the Explorer. */
export interface PathPressure {
  /** Workspace path of the file or folder. */
  path: string;
  /** Marks on this path itself (or on globs rooted at it) plus everything below it. */
  intensity: number;
  /** Marks on this path itself only. */
  ownIntensity: number;
  /** Mark types on or under it, sorted (which running tasks touch it). */
  types: string[];
  /** Tasks those marks belong to, sorted. */
  tasks: string[];
}

/**
 * Rolls marks up to folders: a mark on `src/auth/login.ts` counts for that file, `src/auth` and
 * `src`; a mark on a glob counts for the folder its literal part names (`src/auth/**` →
 * `src/auth`) and above. Marks on bare words or root-level globs name no folder and only count
 * for themselves. Sorted by path.
 */
export function rollUpToFolders(field: StigmergyField): PathPressure[] {
  return rollUpMarks(field.config, [...pointValues(field)]);
}

/** Marks of one node by type, in code-unit order. */
function byType(a: StigPoint, b: StigPoint): number {
  return compareText(a.type, b.type);
}

/** What one path gathers: sums, and the mark types on or under it (sorted and unique once `done`). */
interface Gathered {
  intensity: number;
  own: number;
  types: string[];
  done: boolean;
  /** Listed to hand its sums up to its parent folder. */
  listed: boolean;
}

/**
 * `rollUpToFolders` over live marks (faded, in any order — straight from the store). Sums are
 * taken in one order whatever the order the marks come in (marks by node then type, paths handed
 * up deepest first in the order they were met), so the answer is the same to the last bit for
 * the same marks. One pass over the marks: no field is built.
 */
export function rollUpMarks(config: StigmergyConfig, marks: readonly StigPoint[]): PathPressure[] {
  // Marks by node; nodes in code-unit order (the default sort compares strings so, without a comparator call per pair).
  const byNode = new Map<string, StigPoint[]>();
  for (const p of marks) {
    const group = byNode.get(p.node_id);
    if (group) group.push(p);
    else byNode.set(p.node_id, [p]);
  }
  const nodeIds = [...byNode.keys()].sort();
  const acc = new Map<string, Gathered>();
  const entry = (path: string): Gathered => {
    let e = acc.get(path);
    if (!e) {
      e = { intensity: 0, own: 0, types: [], done: true, listed: false };
      acc.set(path, e);
    }
    return e;
  };
  // Paths that hand their sums up to a parent folder, by depth (number of `/`), in the order met.
  const byDepth: string[][] = [];
  const list = (path: string, e: Gathered) => {
    let p = path;
    let g = e;
    while (!g.listed) {
      g.listed = true;
      let depth = 0;
      for (let k = p.indexOf('/'); k >= 0; k = p.indexOf('/', k + 1)) depth++;
      (byDepth[depth] ??= []).push(p);
      const cut = p.lastIndexOf('/');
      if (cut <= 0) break;
      p = p.slice(0, cut);
      g = entry(p);
    }
  };
  for (const nodeId of nodeIds) {
    const points = byNode.get(nodeId)!;
    if (points.length > 1) points.sort(byType);
    let sum = 0;
    const types: string[] = [];
    for (const p of points) {
      sum += p.intensity;
      types.push(p.type);
    }
    const intensity = clampIntensity(config, sum);
    const folder = homeFolder(nodeId);
    const e = entry(folder ?? nodeId);
    e.intensity += intensity;
    e.own += intensity;
    if (e.types.length === 0) e.types = types;
    else {
      for (const t of types) e.types.push(t);
      e.done = false;
    }
    if (folder !== null) list(folder, e);
  }
  // A parent is always less deep than its children: deepest first hands sums up in order.
  for (let depth = byDepth.length - 1; depth >= 1; depth--) {
    for (const path of byDepth[depth] ?? []) {
      const cut = path.lastIndexOf('/');
      if (cut <= 0) continue;
      const child = finish(acc.get(path)!);
      const parent = acc.get(path.slice(0, cut))!;
      parent.intensity += child.intensity;
      for (const t of child.types) parent.types.push(t);
      parent.done = false;
    }
  }
  const taskOf = new Map<string, string | null>();
  const out: PathPressure[] = [];
  for (const path of [...acc.keys()].sort()) {
    const e = finish(acc.get(path)!);
    const tasks: string[] = [];
    for (const t of e.types) {
      let task = taskOf.get(t);
      if (task === undefined) {
        task = markTypeTask(t);
        taskOf.set(t, task);
      }
      if (task !== null) tasks.push(task);
    }
    out.push({ path, intensity: e.intensity, ownIntensity: e.own, types: e.types, tasks: tasks.length > 1 ? [...new Set(tasks)].sort(compareText) : tasks });
  }
  return out;
}

/** Types made unique and sorted (once). */
function finish(e: Gathered): Gathered {
  if (!e.done) {
    e.types = [...new Set(e.types)].sort();
    e.done = true;
  }
  return e;
}

/** The path a node's pressure shows on: itself for a path, its literal folder for a glob. */
function homeFolder(nodeId: string): string | null {
  if (!isGlobPattern(nodeId)) return nodeId.includes('/') ? nodeId : null;
  const seq = shapeOf(nodeId).sequences[0] ?? [];
  const head = literalHead(seq);
  return head.length > 0 ? head.join('/') : null;
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
    nodes.push({ node_id: nodeId, intensity: max === null ? e.intensity : Math.min(max, e.intensity), types: e.types.sort(compareText) });
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
