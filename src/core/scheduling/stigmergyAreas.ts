import { patternsOverlap } from './scopeOverlap';
import { isGlobPattern, literalHead, shapeOf } from './scopePatterns';
import { clampIntensity, compareText, pointValues, removeMarks } from './stigmergyField';
import type { StigChange, StigmergyField } from './stigmergyField';
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
  const perNode = new Map<string, { intensity: number; types: string[] }>();
  for (const p of pointValues(field)) {
    const entry = perNode.get(p.node_id);
    if (entry) {
      entry.intensity += p.intensity;
      entry.types.push(p.type);
    } else {
      perNode.set(p.node_id, { intensity: p.intensity, types: [p.type] });
    }
  }
  // Each node counts for its home path; then folders hand their sums up, deepest first, so a
  // folder's set of types is merged into its parent once rather than once per file below it.
  const acc = new Map<string, { intensity: number; own: number; types: Set<string> }>();
  const entry = (path: string) => {
    let e = acc.get(path);
    if (!e) {
      e = { intensity: 0, own: 0, types: new Set<string>() };
      acc.set(path, e);
    }
    return e;
  };
  const folders = new Set<string>();
  for (const [nodeId, node] of perNode) {
    const intensity = clampIntensity(field.config, node.intensity);
    const folder = homeFolder(nodeId);
    const e = entry(folder ?? nodeId);
    e.intensity += intensity;
    e.own += intensity;
    for (const t of node.types) e.types.add(t);
    if (folder !== null) folders.add(folder);
  }
  const pending = [...folders];
  for (const path of pending) {
    const cut = path.lastIndexOf('/');
    if (cut > 0 && !folders.has(path.slice(0, cut))) {
      folders.add(path.slice(0, cut));
      pending.push(path.slice(0, cut));
    }
  }
  // A parent path is always shorter than its children: longest first hands sums up in order.
  for (const path of [...folders].sort((a, b) => b.length - a.length)) {
    const cut = path.lastIndexOf('/');
    if (cut <= 0) continue;
    const child = entry(path);
    const parent = entry(path.slice(0, cut));
    parent.intensity += child.intensity;
    for (const t of child.types) parent.types.add(t);
  }
  const taskOf = new Map<string, string | null>();
  for (const node of perNode.values()) for (const t of node.types) if (!taskOf.has(t)) taskOf.set(t, markTypeTask(t));
  return [...acc.entries()]
    .map(([path, e]) => {
      const types = [...e.types].sort(compareText);
      const tasks = [...new Set(types.map((t) => taskOf.get(t) ?? null).filter((t): t is string => t !== null))].sort(compareText);
      return { path, intensity: e.intensity, ownIntensity: e.own, types, tasks };
    })
    .sort((a, b) => compareText(a.path, b.path));
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
