import type { RunningTask } from './contractNetModel';
import { scopeOverlaps } from './scopeOverlap';
import { markTypeTask } from './stigmergyAreas';
import { compareText, pointValues } from './stigmergyField';
import type { StigmergyField } from './stigmergyField';

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
export function overlapsAmongRunning(running: readonly RunningTask[], field?: StigmergyField): Map<string, RunningOverlap[]> {
  const areas = runningAreas(running, field);
  const agents = new Map(running.map((r) => [r.taskId, r.agentId]));
  const tasks = [...areas.keys()].filter((t) => areas.get(t)!.length > 0).sort(compareText);
  const out = new Map<string, RunningOverlap[]>();
  const add = (task: string, overlap: RunningOverlap) => {
    const list = out.get(task);
    if (list) list.push(overlap);
    else out.set(task, [overlap]);
  };
  for (let i = 0; i < tasks.length; i++) {
    for (let j = i + 1; j < tasks.length; j++) {
      const [a, b] = [tasks[i], tasks[j]];
      const pairs = scopeOverlaps(areas.get(a)!, areas.get(b)!);
      if (pairs.length === 0) continue;
      const left = [...new Set(pairs.map((p) => p.left))];
      const right = [...new Set(pairs.map((p) => p.right))];
      add(a, { task: b, agent: agents.get(b) ?? null, paths: [...new Set([...left, ...right])] });
      add(b, { task: a, agent: agents.get(a) ?? null, paths: [...new Set([...right, ...left])] });
    }
  }
  for (const list of out.values()) list.sort((x, y) => compareText(x.task, y.task));
  return out;
}
