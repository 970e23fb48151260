import { isGlobPattern, literalHead, shapeOf } from '../../tasks/scopePatterns';
import { clampIntensity, compareText } from './stigmergyField';
import type { StigmergyConfig } from './stigmergyField';

/**
 * The folder roll-up of the stigmergy field (the Explorer's pressure), kept as a tree that a
 * change updates in place: a mark on `src/auth/login.ts` counts for that file, `src/auth` and
 * `src`; a mark on a glob counts for the folder its literal part names (`src/auth/**` →
 * `src/auth`) and above; marks on bare words or root-level globs name no folder and only count
 * for themselves.
 *
 * Setting the marks of a node marks its path and the folders above it; `flush` recomputes only
 * those, deepest first, each from its own nodes (by node id) and its children (by path) — the
 * same sums in the same order as a tree built from scratch over the same marks, so a tree kept up
 * to date and a new one give the same numbers to the last bit. Marks carry a weight (the
 * intensity, or — for a field that fades — the intensity brought to a common time, see
 * stigmergyPressure.ts); `list(scale)` scales every sum by one factor.
 */

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

/** One live mark of a node as the tree sums it. */
export interface WeightedMark {
  type: string;
  weight: number;
}

interface NodeSum {
  home: string;
  total: number;
  types: string[];
  tasks: string[];
}

interface PathEntry {
  parent: string | null;
  depth: number;
  /** Nodes whose pressure shows on this path (most paths: one file). */
  nodes: string[];
  /** Paths under it that hand their sums up to it (null: none yet). */
  children: Set<string> | null;
  own: number;
  sum: number;
  types: string[];
  tasks: string[];
}

/** The task a mark type belongs to (`task-12` for `changed:task-12`), or null for other types. */
export function markTypeTask(type: string): string | null {
  const m = /^(?:scope|changed):(.+)$/.exec(type);
  return m ? m[1] : null;
}

/** The tasks some mark types name, unique and sorted. */
function tasksOf(types: readonly string[]): string[] {
  const tasks: string[] = [];
  for (const t of types) {
    const task = markTypeTask(t);
    if (task !== null) tasks.push(task);
  }
  return tasks.length > 1 ? [...new Set(tasks)].sort(compareText) : tasks;
}

/** The folder a node's pressure shows on and rolls up from, or null (a bare word, a root-level glob: only itself). */
function homeFolder(nodeId: string): string | null {
  if (!isGlobPattern(nodeId)) return nodeId.includes('/') ? nodeId : null;
  const seq = shapeOf(nodeId).sequences[0] ?? [];
  const head = literalHead(seq);
  return head.length > 0 ? head.join('/') : null;
}

function depthOf(path: string): number {
  let depth = 0;
  for (let k = path.indexOf('/'); k >= 0; k = path.indexOf('/', k + 1)) depth++;
  return depth;
}

/** Index of `path` in sorted `paths` (code-unit order), or where it would go. */
function searchSorted(paths: readonly string[], path: string): number {
  let lo = 0;
  let hi = paths.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (paths[mid] < path) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class RollUpTree {
  private readonly nodes = new Map<string, NodeSum>();
  private readonly entries = new Map<string, PathEntry>();
  /** Every path with pressure, in code-unit order (once `added` and `removed` are folded in). */
  private sorted: string[] = [];
  private added: string[] = [];
  private readonly removed = new Set<string>();
  /** The answer's object of each path in `sorted`, at `scale`; `touched`: paths recomputed since. */
  private outs: PathPressure[] = [];
  private scale = 1;
  private readonly touched = new Set<string>();
  private readonly dirty = new Set<string>();

  /** `config`: a node's total is clamped to its maximum (only meaningful when weights are intensities). */
  constructor(private readonly config: StigmergyConfig) {}

  get nodeCount(): number {
    return this.nodes.size;
  }

  /**
   * Fills an empty tree with many nodes at once: the same sums as `setNode` for each, without
   * tracking what changed (every path is computed once, deepest first).
   */
  load(nodes: Iterable<readonly [string, readonly WeightedMark[]]>): void {
    if (this.nodes.size > 0 || this.dirty.size > 0) throw new Error('RollUpTree.load needs an empty tree');
    for (const [nodeId, marks] of nodes)
      if (marks.length > 0) this.nodes.set(nodeId, this.summed(this.place(nodeId), marks));
    const byDepth: string[][] = [];
    for (const [path, e] of this.entries) (byDepth[e.depth] ??= []).push(path);
    for (let depth = byDepth.length - 1; depth >= 0; depth--)
      for (const path of byDepth[depth] ?? []) this.recompute(path);
  }

  /** Replaces the live marks of a node (none: the node goes). */
  setNode(nodeId: string, marks: readonly WeightedMark[]): void {
    if (marks.length === 0) {
      this.removeNode(nodeId);
      return;
    }
    const home = this.nodes.get(nodeId)?.home ?? this.place(nodeId);
    this.nodes.set(nodeId, this.summed(home, marks));
    this.dirty.add(home);
  }

  /** A node's total (its marks by type) and lists. */
  private summed(home: string, marks: readonly WeightedMark[]): NodeSum {
    const ordered = marks.length > 1 ? [...marks].sort((a, b) => compareText(a.type, b.type)) : marks;
    let total = 0;
    const types: string[] = [];
    for (const m of ordered) {
      total += m.weight;
      types.push(m.type);
    }
    return { home, total: clampIntensity(this.config, total), types, tasks: tasksOf(types) };
  }

  removeNode(nodeId: string): void {
    const node = this.nodes.get(nodeId);
    if (!node) return;
    this.nodes.delete(nodeId);
    const e = this.entries.get(node.home);
    if (e) e.nodes = e.nodes.filter((id) => id !== nodeId);
    this.dirty.add(node.home);
  }

  /** Recomputes the paths changed since the last flush and the folders above them, deepest first. */
  flush(): void {
    if (this.dirty.size === 0) return;
    const todo = new Set<string>();
    for (const path of this.dirty) {
      for (let p: string | null = path; p !== null && !todo.has(p); p = this.entries.get(p)?.parent ?? null)
        todo.add(p);
    }
    this.dirty.clear();
    // A folder is always less deep than the paths under it: deepest first, each sums finished children.
    const byDepth: string[][] = [];
    for (const path of todo) (byDepth[this.entries.get(path)?.depth ?? 0] ??= []).push(path);
    for (let depth = byDepth.length - 1; depth >= 0; depth--)
      for (const path of byDepth[depth] ?? []) this.recompute(path);
  }

  /**
   * Every path with pressure, sorted by path, sums scaled by `scale`. A path that did not change
   * since the last list at the same scale is the same object as then: a change costs the paths
   * it touched (and a copy of the list), not a new object per path.
   */
  list(scale = 1): PathPressure[] {
    this.flush();
    const rescale = scale !== this.scale;
    this.scale = scale;
    this.settleOrder();
    if (rescale) {
      for (let i = 0; i < this.sorted.length; i++) this.outs[i] = this.output(this.sorted[i]);
    } else {
      for (const path of this.touched) {
        const i = searchSorted(this.sorted, path);
        if (this.sorted[i] === path) this.outs[i] = this.output(path);
      }
    }
    this.touched.clear();
    return this.outs.slice();
  }

  private output(path: string): PathPressure {
    const e = this.entries.get(path)!;
    return { path, intensity: e.sum * this.scale, ownIntensity: e.own * this.scale, types: e.types, tasks: e.tasks };
  }

  /** Folds the paths added and removed since the last list into the sorted list (and its outputs): a few in place, many at once. */
  private settleOrder(): void {
    if (this.removed.size > 64 || this.added.length > 64) {
      this.sorted = [...this.entries.keys()].sort();
      this.outs = this.sorted.map((path) => this.output(path));
    } else {
      for (const path of this.removed) {
        const i = searchSorted(this.sorted, path);
        if (this.sorted[i] === path) {
          this.sorted.splice(i, 1);
          this.outs.splice(i, 1);
        }
      }
      for (const path of this.added) {
        const i = searchSorted(this.sorted, path);
        this.sorted.splice(i, 0, path);
        this.outs.splice(i, 0, this.output(path));
      }
    }
    this.removed.clear();
    this.added = [];
  }

  /** Adds a node to the path its pressure shows on, creating that path and the folders above it. */
  private place(nodeId: string): string {
    const folder = homeFolder(nodeId);
    const home = folder ?? nodeId;
    this.entry(home, folder !== null).nodes.push(nodeId);
    return home;
  }

  /** The entry of a path; `chained`: it hands its sums up to the folder above it (created too). */
  private entry(path: string, chained: boolean): PathEntry {
    let e = this.entries.get(path);
    if (!e) {
      e = { parent: null, depth: depthOf(path), nodes: [], children: null, own: 0, sum: 0, types: [], tasks: [] };
      this.entries.set(path, e);
      if (!this.removed.delete(path)) this.added.push(path);
    }
    if (chained && e.parent === null) {
      const cut = path.lastIndexOf('/');
      if (cut > 0) {
        e.parent = path.slice(0, cut);
        (this.entry(e.parent, true).children ??= new Set()).add(path);
      }
    }
    return e;
  }

  private recompute(path: string): void {
    const e = this.entries.get(path);
    if (!e) return;
    const children = e.children?.size ?? 0;
    if (e.nodes.length === 0 && children === 0) {
      this.entries.delete(path);
      const i = this.added.indexOf(path);
      if (i >= 0) this.added.splice(i, 1);
      else this.removed.add(path);
      if (e.parent !== null) this.entries.get(e.parent)?.children?.delete(path);
      return;
    }
    this.touched.add(path);
    if (e.nodes.length === 1 && children === 0) {
      // A file (the usual path): its node's own lists, nothing allocated.
      const node = this.nodes.get(e.nodes[0])!;
      e.own = e.sum = node.total;
      e.types = node.types;
      e.tasks = node.tasks;
      return;
    }
    let own = 0;
    const types = new Set<string>();
    for (const id of e.nodes.length > 1 ? [...e.nodes].sort() : e.nodes) {
      const node = this.nodes.get(id)!;
      own += node.total;
      for (const t of node.types) types.add(t);
    }
    let sum = own;
    if (e.children) {
      for (const child of children > 1 ? [...e.children].sort() : e.children) {
        const c = this.entries.get(child)!;
        sum += c.sum;
        for (const t of c.types) types.add(t);
      }
    }
    e.own = own;
    e.sum = sum;
    e.types = [...types].sort();
    e.tasks = tasksOf(e.types);
  }
}
