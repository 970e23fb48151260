import type { RunningTask } from '../scheduling/contractNet/contractNetModel';
import { patternsOverlap } from '../tasks/scopeOverlap';
import { literalHead, shapeOf } from '../tasks/scopePatterns';
import { markTypeTask } from '../scheduling/stigmergy/stigmergyAreas';
import { compareText, pointValues } from '../scheduling/stigmergy/stigmergyField';
import type { StigmergyField } from '../scheduling/stigmergy/stigmergyField';

/**
 * Which running tasks may step on each other now: the board's overlap warning. A running task's
 * areas are its write scope (what contract-net's conflict check compares: the agents' recorded
 * scopes, else its areas, else its awarded call's scope) plus the nodes it marked in the
 * stigmergy field (`scope:task-N`, and `changed:task-N` for the files it changed so far). Two
 * tasks overlap when `scopeOverlaps` says some path may match an area of each — the same sound
 * rule the award uses, so the board never says "disjoint" where contract-net would refuse.
 */

/** One running task's overlap with another. */
export interface RunningOverlap {
  /** `task-7` */
  task: string;
  agent: string | null;
  /** The overlapping areas of both tasks, each once (the asking task's first). */
  paths: string[];
}

/** Each running task's areas: its write scope plus the nodes of its marks in `field`. */
export function runningAreas(running: readonly RunningTask[], field?: StigmergyField): Map<string, string[]> {
  const areas = new Map<string, Set<string>>(running.map((r) => [r.taskId, new Set(r.writeScope)]));
  if (field) {
    for (const p of pointValues(field)) {
      const task = markTypeTask(p.type);
      if (task !== null) areas.get(task)?.add(p.node_id);
    }
  }
  return new Map([...areas].map(([task, set]) => [task, [...set]]));
}

/**
 * Every pair of running tasks whose areas may overlap, as a list per task (both tasks of a pair
 * list each other), sorted by the other task's key. Tasks without areas overlap nothing.
 */
export function overlapsAmongRunning(
  running: readonly RunningTask[],
  field?: StigmergyField,
): Map<string, RunningOverlap[]> {
  const areas = runningAreas(running, field);
  const agents = new Map(running.map((r) => [r.taskId, r.agentId]));
  // Pairs of tasks, each with the overlapping patterns of both sides, from the candidates the
  // head index proposes and `patternsOverlap` (the award's rule) confirms.
  const pairs = new Map<string, { a: string; b: string; left: Set<string>; right: Set<string> }>();
  const index = new HeadIndex();
  for (const [task, patterns] of areas) for (const pattern of patterns) index.add(task, pattern);
  for (const [task, patterns] of areas) {
    for (const pattern of patterns) {
      for (const other of index.candidates(pattern)) {
        if (other.task <= task || !patternsOverlap(pattern, other.pattern)) continue; // each pair once, from its lower task
        const key = `${task}\u0000${other.task}`;
        let pair = pairs.get(key);
        if (!pair) pairs.set(key, (pair = { a: task, b: other.task, left: new Set(), right: new Set() }));
        pair.left.add(pattern);
        pair.right.add(other.pattern);
      }
    }
  }
  const out = new Map<string, RunningOverlap[]>();
  const add = (task: string, overlap: RunningOverlap) => {
    const list = out.get(task);
    if (list) list.push(overlap);
    else out.set(task, [overlap]);
  };
  for (const { a, b, left, right } of pairs.values()) {
    const [l, r] = [sortedIn(areas.get(a)!, left), sortedIn(areas.get(b)!, right)];
    add(a, { task: b, agent: agents.get(b) ?? null, paths: [...new Set([...l, ...r])] });
    add(b, { task: a, agent: agents.get(a) ?? null, paths: [...new Set([...r, ...l])] });
  }
  for (const list of out.values()) list.sort((x, y) => compareText(x.task, y.task));
  return out;
}

/** The members of `chosen` in the order `all` lists them (the task's own order of areas). */
function sortedIn(all: readonly string[], chosen: ReadonlySet<string>): string[] {
  return all.filter((p) => chosen.has(p));
}

/**
 * Which patterns could overlap a given one, without comparing every pair: every path a pattern
 * matches starts with its literal head (the literal segments before the first wildcard), so two
 * patterns can only meet when one head is a prefix of the other. Patterns whose shape has no
 * single case-sensitive head (bare words, braces) are candidates for everything. A sound filter:
 * `patternsOverlap` still decides. At 200 running tasks with 10,000 marked files this turns
 * 50 million comparisons into a few per file.
 */
class HeadIndex {
  /** Patterns by their whole head. */
  private readonly byHead = new Map<string, Entry[]>();
  /** Patterns by every prefix of their head (the whole head included). */
  private readonly byPrefix = new Map<string, Entry[]>();
  private readonly anywhere: Entry[] = [];

  add(task: string, pattern: string): void {
    const entry = { task, pattern };
    const head = headOf(pattern);
    if (head === null) {
      this.anywhere.push(entry);
      return;
    }
    push(this.byHead, head.join('/'), entry);
    for (let i = 0; i <= head.length; i++) push(this.byPrefix, head.slice(0, i).join('/'), entry);
  }

  candidates(pattern: string): Entry[] {
    const head = headOf(pattern);
    if (head === null) return [...this.anywhere, ...(this.byPrefix.get('') ?? [])];
    const out = [...this.anywhere, ...(this.byPrefix.get(head.join('/')) ?? [])];
    for (let i = 0; i < head.length; i++) out.push(...(this.byHead.get(head.slice(0, i).join('/')) ?? []));
    return out;
  }
}

interface Entry {
  task: string;
  pattern: string;
}

function headOf(pattern: string): string[] | null {
  const shape = shapeOf(pattern);
  return shape.nocase || shape.sequences.length !== 1 ? null : literalHead(shape.sequences[0]);
}

function push(map: Map<string, Entry[]>, key: string, entry: Entry): void {
  const list = map.get(key);
  if (list) list.push(entry);
  else map.set(key, [entry]);
}
