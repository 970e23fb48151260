import type { AsyncSqlReader } from '../../ports/store';
import type { StigmergyConfig } from './stigmergyField';
import { fadeTo, fieldVersion } from './stigmergyQueries';
import { RollUpTree } from './stigmergyRollUp';
import type { PathPressure, WeightedMark } from './stigmergyRollUp';
import { endedTasks } from './stigmergyStore';

/**
 * The Explorer's pressure roll-up kept up to date from the store: the first read takes every
 * stored mark; after that, a read looks at stig_clock and, when it moved, reads only the marks of
 * the nodes the change log (stig_changes, migration v17) names for the versions in between, and
 * folds them into the kept roll-up tree (stigmergyRollUp.ts). Which of the marks' tasks ended is
 * asked at every read (their marks stop counting at once), and marks that faded under the
 * evaporation floor since are dropped when the first of them is due.
 *
 * Fading: every mark fades by the same factor between two moments, so the tree sums weights —
 * each mark's intensity brought to a common time E, I × 2^((updated_at − E) / half-life) — and
 * the answer at `now` is every sum × 2^((E − now) / half-life). E is the start of a window of 64
 * half-lives (the same for every reader at the same moment), so a kept roll-up and one built from
 * scratch at the same moment sum the same weights in the same order: the same numbers to the last
 * bit. A new window, a field with a bound and a half-life (a node's clamp depends on the moment),
 * a gap in the change log (a reader more than 1,024 versions behind, a writer from before v17) or
 * a decay (every mark changed) read everything again, as the first read does.
 */

/** A kept roll-up reads everything again rather than more than this many changed nodes. */
const maxChangedNodes = 20_000;
/** Weights are brought to the start of a window this many half-lives long. */
const windowHalfLives = 64;

/**
 * The roll-up of the marks live at the moment it was read, their numbers faded to `at` (that
 * moment, or up to one half-life before it: the same objects serve until then). It stands until
 * `version` moves, a task of `taskIds` ends or `until` comes.
 */
export interface PressureRollUp {
  paths: PathPressure[];
  version: number;
  at: number;
  until: number;
  /** The tasks whose marks it holds (ended ones left out). */
  taskIds: number[];
}

interface StoredMark {
  type: string;
  intensity: number;
  updated_at: number;
  taskId: number | null;
  live: boolean;
  /** Stamped after the moment it was weighed (another machine's clock): it counts at its intensity until then. */
  future: boolean;
}

interface Kept {
  version: number;
  epoch: number;
  /** The moment the answer's numbers are faded to. */
  at: number;
  marks: Map<string, StoredMark[]>;
  taskNodes: Map<number, Set<string>>;
  ended: Set<number>;
  /** Before this moment no live mark fades under the floor. */
  nextCheck: number;
  tree: RollUpTree;
  result: PressureRollUp;
}

interface MarkRow {
  node_id: string;
  type: string;
  intensity: number;
  updated_at: number;
  task_id: number | null;
}

export class PressureFollower {
  private kept: Kept | null = null;

  constructor(private readonly config: StigmergyConfig) {}

  /**
   * The roll-up at `now`, inside the caller's read. `at`: the moment to fade to when everything
   * is read (tests compare a kept roll-up with one built from scratch for the same moments).
   */
  async read(db: AsyncSqlReader, now: number, at = now): Promise<PressureRollUp> {
    const version = await fieldVersion(db);
    const kept = this.kept;
    if (!kept || (this.incremental() && kept.epoch !== this.epochAt(now))) return this.readAll(db, now, version, at);
    const dirty = new Set<string>();
    if (version !== kept.version) {
      const nodes = await this.changedNodes(db, kept.version, version);
      if (nodes === null) return this.readAll(db, now, version);
      const stored = await marksOfNodes(db, nodes);
      for (const node of nodes) {
        for (const m of kept.marks.get(node) ?? []) if (m.taskId !== null) kept.taskNodes.get(m.taskId)?.delete(node);
        const marks = stored.get(node);
        if (marks) {
          kept.marks.set(node, marks);
          for (const m of marks) if (m.taskId !== null) nodesOf(kept.taskNodes, m.taskId).add(node);
        } else {
          kept.marks.delete(node);
        }
        dirty.add(node);
      }
    }
    const ended = await endedTasks(db, [...kept.taskNodes.keys()]);
    for (const [task, nodes] of kept.taskNodes) {
      if (ended.has(task) !== kept.ended.has(task)) for (const node of nodes) dirty.add(node);
      if (nodes.size === 0) kept.taskNodes.delete(task);
    }
    kept.ended = ended;
    if (now >= kept.nextCheck) {
      // The first mark is due to evaporate: find the ones that did (a scan of the kept marks, no read).
      kept.nextCheck = Number.POSITIVE_INFINITY;
      for (const [node, marks] of kept.marks) {
        for (const m of marks) {
          if (!m.live) continue;
          const due = this.evaporatesAt(m);
          if ((m.future && m.updated_at <= now) || (due <= now && !this.isLive(m, kept.ended, now))) dirty.add(node);
          else
            kept.nextCheck = Math.min(
              kept.nextCheck,
              Math.max(due, now + 1),
              m.future ? m.updated_at : Number.POSITIVE_INFINITY,
            );
        }
      }
    }
    if (dirty.size === 0 && version === kept.version) return kept.result;
    if (!this.incremental()) return this.readAll(db, now, version);
    for (const node of dirty) this.apply(kept, node, now);
    kept.version = version;
    // Numbers faded to a moment up to one half-life old: moving it makes a new object of every path.
    const h = this.config.half_life_ms;
    if (h !== null && now - kept.at > h) kept.at = now;
    kept.result = this.result(kept, now);
    return kept.result;
  }

  /** Every stored mark read and rolled up afresh. */
  private async readAll(db: AsyncSqlReader, now: number, version: number, at = now): Promise<PressureRollUp> {
    const rows = await db.all<MarkRow>('SELECT node_id, type, intensity, updated_at, task_id FROM stig_points');
    const marks = new Map<string, StoredMark[]>();
    const taskNodes = new Map<number, Set<string>>();
    for (const r of rows) {
      const m = storedMark(r);
      const list = marks.get(r.node_id);
      if (list) list.push(m);
      else marks.set(r.node_id, [m]);
      if (m.taskId !== null) nodesOf(taskNodes, m.taskId).add(r.node_id);
    }
    const kept: Kept = {
      version,
      epoch: this.epochAt(now),
      at,
      marks,
      taskNodes,
      ended: await endedTasks(db, [...taskNodes.keys()]),
      nextCheck: Number.POSITIVE_INFINITY,
      tree: new RollUpTree(this.config),
      result: { paths: [], version, at, until: Number.POSITIVE_INFINITY, taskIds: [] },
    };
    const nodes: [string, WeightedMark[]][] = [];
    for (const node of marks.keys()) nodes.push([node, this.liveMarks(kept, node, now)]);
    kept.tree.load(nodes);
    kept.result = this.result(kept, now);
    this.kept = kept;
    return kept.result;
  }

  private result(kept: Kept, now: number): PressureRollUp {
    const taskIds: number[] = [];
    for (const [task, nodes] of kept.taskNodes) if (nodes.size > 0 && !kept.ended.has(task)) taskIds.push(task);
    return {
      paths: kept.tree.list(this.factor(kept.epoch, kept.at)),
      version: kept.version,
      at: kept.at,
      until: Math.max(kept.nextCheck, now),
      taskIds,
    };
  }

  /**
   * The nodes changed after version `from` up to `to`, or null when the log cannot say (a version
   * without its rows, a change of every node, too many nodes): then everything is read again.
   */
  private async changedNodes(db: AsyncSqlReader, from: number, to: number): Promise<string[] | null> {
    if (to < from || !this.incremental()) return null;
    const rows = await db.all<{ version: number; node_id: string }>(
      'SELECT version, node_id FROM stig_changes WHERE version > ? AND version <= ?',
      [from, to],
    );
    const versions = new Set<number>();
    const nodes = new Set<string>();
    for (const r of rows) {
      if (r.node_id === '') return null;
      versions.add(Number(r.version));
      nodes.add(r.node_id);
    }
    if (versions.size !== to - from || nodes.size > maxChangedNodes) return null;
    return [...nodes];
  }

  /** A node's live marks (at `now`) into the tree. */
  private apply(kept: Kept, node: string, now: number): void {
    kept.tree.setNode(node, this.liveMarks(kept, node, now));
  }

  /** A node's live marks at `now`, weighed; notes when the first of them is due to evaporate. */
  private liveMarks(kept: Kept, node: string, now: number): WeightedMark[] {
    const live: WeightedMark[] = [];
    for (const m of kept.marks.get(node) ?? []) {
      m.live = this.isLive(m, kept.ended, now);
      if (!m.live) continue;
      m.future = m.updated_at > now;
      live.push({ type: m.type, weight: this.weight(kept.epoch, m, now) });
      kept.nextCheck = Math.min(
        kept.nextCheck,
        Math.max(this.evaporatesAt(m), now + 1),
        m.future ? m.updated_at : Number.POSITIVE_INFINITY,
      );
    }
    return live;
  }

  /** Is a mark counted at `now`: its task not ended, faded above the floor (as the field reads it). */
  private isLive(m: StoredMark, ended: Set<number>, now: number): boolean {
    return (m.taskId === null || !ended.has(m.taskId)) && fadeTo(this.config, m, now) > this.config.evaporation_floor;
  }

  /** A moment before which a mark surely stays above the floor (a millisecond early). */
  private evaporatesAt(m: StoredMark): number {
    const h = this.config.half_life_ms;
    if (h === null) return Number.POSITIVE_INFINITY;
    return m.updated_at + h * Math.log2(m.intensity / this.config.evaporation_floor) - 1;
  }

  /** Can a kept roll-up take a change in (the same weights hold at any moment)? */
  private incremental(): boolean {
    return this.config.half_life_ms === null || this.config.max_intensity === null;
  }

  /** The time weights are brought to: a window's start; `now` itself when each read must start again. */
  private epochAt(now: number): number {
    const h = this.config.half_life_ms;
    if (h === null) return 0;
    if (!this.incremental()) return now;
    const window = h * windowHalfLives;
    return Math.floor(now / window) * window;
  }

  /** I × 2^((updated_at − epoch) / h); a mark stamped after `now` does not fade yet (as `fadeTo`). */
  private weight(epoch: number, m: StoredMark, now: number): number {
    const h = this.config.half_life_ms;
    return h === null ? m.intensity : m.intensity * Math.pow(2, (Math.min(m.updated_at, now) - epoch) / h);
  }

  /** What turns a weight into the intensity at `at`. */
  private factor(epoch: number, at: number): number {
    const h = this.config.half_life_ms;
    return h === null || epoch === at ? 1 : Math.pow(2, (epoch - at) / h);
  }
}

function storedMark(r: MarkRow): StoredMark {
  return {
    type: r.type,
    intensity: Number(r.intensity),
    updated_at: Number(r.updated_at),
    taskId: r.task_id === null ? null : Number(r.task_id),
    live: false,
    future: false,
  };
}

function nodesOf(taskNodes: Map<number, Set<string>>, task: number): Set<string> {
  let nodes = taskNodes.get(task);
  if (!nodes) {
    nodes = new Set();
    taskNodes.set(task, nodes);
  }
  return nodes;
}

/** The stored marks of some nodes, by node (a node without marks is absent). */
async function marksOfNodes(db: AsyncSqlReader, nodes: readonly string[]): Promise<Map<string, StoredMark[]>> {
  const out = new Map<string, StoredMark[]>();
  for (let i = 0; i < nodes.length; i += 500) {
    const slice = nodes.slice(i, i + 500);
    const rows = await db.all<MarkRow>(
      `SELECT node_id, type, intensity, updated_at, task_id FROM stig_points WHERE node_id IN (${slice.map(() => '?').join(', ')})`,
      slice,
    );
    for (const r of rows) {
      const list = out.get(r.node_id);
      if (list) list.push(storedMark(r));
      else out.set(r.node_id, [storedMark(r)]);
    }
  }
  return out;
}
