import { patternsOverlap } from './scopeOverlap';
import { isGlobPattern, literalHead, shapeOf } from './scopePatterns';
import { compareText, nodeTotal, removeMarks } from './stigmergyField';
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
  const acc = new Map<string, { intensity: number; own: number; types: Set<string> }>();
  const add = (path: string, intensity: number, types: readonly string[], own: boolean) => {
    const entry = acc.get(path) ?? { intensity: 0, own: 0, types: new Set<string>() };
    entry.intensity += intensity;
    if (own) entry.own += intensity;
    for (const t of types) entry.types.add(t);
    acc.set(path, entry);
  };
  const typesByNode = new Map<string, string[]>();
  for (const p of field.points.values()) {
    const list = typesByNode.get(p.node_id);
    if (list) list.push(p.type);
    else typesByNode.set(p.node_id, [p.type]);
  }
  for (const [nodeId, types] of typesByNode) {
    const intensity = nodeTotal(field, nodeId)?.intensity ?? 0;
    const home = homeFolder(nodeId);
    if (home === null) {
      add(nodeId, intensity, types, true);
      continue;
    }
    add(home, intensity, types, true);
    const parts = home.split('/');
    for (let i = parts.length - 1; i > 0; i--) add(parts.slice(0, i).join('/'), intensity, types, false);
  }
  return [...acc.entries()]
    .map(([path, e]) => {
      const types = [...e.types].sort(compareText);
      const tasks = [...new Set(types.map(markTypeTask).filter((t): t is string => t !== null))].sort(compareText);
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
  for (const p of field.points.values()) {
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
