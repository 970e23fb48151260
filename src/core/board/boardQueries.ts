import type { LedgerEngine } from '../ports/store';
import { notFound, parseId, taskKey, workflowKey } from '../ids';
import { workingTasks } from '../scheduling/startGates';
import { overlapsAmongRunning } from './runningOverlaps';
import type { RunningOverlap } from './runningOverlaps';
import type { RunningTask } from '../scheduling/contractNet/contractNetModel';
import { markTypeTask } from '../scheduling/stigmergy/stigmergyAreas';
import type { PathPressure } from '../scheduling/stigmergy/stigmergyAreas';
import type { StigmergyService } from '../scheduling/stigmergy/stigmergyService';
import { boardCards } from './boardModel';
import type { BoardOverlap, BoardSnapshot } from './boardModel';
import { agentNames, latestSessions, readAgents, readTasks, readWaiting } from './boardReads';
import { readDependencies } from '../tasks/taskDependencies';
import { layoutGraph, nodeWhy, planGraphModel } from './planGraphLayout';
import type { LayoutInput, PlacedGraph, PlanGraphModel, PlanTaskRow } from './planGraphLayout';
import type { TaskWaiting } from '../tasks/taskModel';

/** The pressure on one file or folder, as the Explorer shows it. */
export interface ExplorerPressure {
  /** Workspace-relative path (folders included: pressure rolls up). */
  path: string;
  /** Sum of the intensities of the marks on and under it, faded to the roll-up's moment (at most one half-life old). */
  intensity: number;
  /** The running tasks whose marks are on or under it, by key. */
  tasks: PressureTask[];
  /** Those of them that changed files on or under it (`changed:` marks; the others only declared it as their area). */
  changedBy: string[];
  /** Mark types not tied to a task (an agent's own `stig_mark`). */
  others: string[];
}

/** A task named by the Explorer: its key, title, agent and status now. */
export interface PressureTask {
  key: string;
  title: string | null;
  agent: string | null;
  status: string | null;
}

/** Layouts kept for workflows whose shape did not change (a live state change needs no new layout). */
const keptLayouts = 16;

/**
 * Read models of the editor's Board and plan graph, over the asynchronous port so they read the
 * same on the embedded store and on PostgreSQL. A handful of whole-table reads per call (no query
 * per task): the board of 2,000 tasks is one pass.
 */
export class BoardQueries {
  private readonly layouts = new Map<number, { shape: string; placed: PlacedGraph }>();
  /** The last Explorer answer (one per path of `paths`), and the tasks it names. */
  private lastPressure:
    | {
        paths: readonly PathPressure[];
        tasks: Map<string, PressureTask>;
        lists: {
          tasks: WeakMap<string[], ExplorerPressure['tasks']>;
          others: WeakMap<string[], string[]>;
          changed: WeakMap<string[], string[]>;
        };
        value: ExplorerPressure[];
      }
    | undefined;
  private lastOverlaps: { key: string; value: Map<string, RunningOverlap[]> } | undefined;

  /** The first listing of the agent files (see agentsIndexed): true once it succeeded. */
  private agentsListed: Promise<boolean> | undefined;

  /**
   * `stigmergy`: the field whose marks count as running tasks' areas for the overlap warning (without it: write
   * scopes only). `listAgents`: lists the agent files, which writes the built-ins on first use and brings the
   * agents index up to date.
   */
  constructor(
    private readonly engine: LedgerEngine,
    private readonly stigmergy?: StigmergyService,
    private readonly listAgents?: () => Promise<unknown>,
  ) {}

  /**
   * The Board's agents come from the index, which a process brings up to date when it lists the agent files:
   * listed once before the first read, a fresh workspace's first Board offers the built-ins. A folder that
   * cannot be listed is said by the agent views; it is tried again on the next read.
   */
  private async agentsIndexed(): Promise<void> {
    if (!this.listAgents) return;
    this.agentsListed ??= this.listAgents().then(
      () => true,
      () => false,
    );
    if (!(await this.agentsListed)) this.agentsListed = undefined;
  }

  /** Every task of the ledger in its column, and the pipelines waiting for a person. */
  async board(): Promise<BoardSnapshot> {
    await this.agentsIndexed();
    return this.engine.read(async (db) => {
      const [tasks, dependencies, waiting, agents] = [
        await readTasks(db),
        await readDependencies(db),
        await readWaiting(db),
        await readAgents(db),
      ];
      const clients = new Map(agents.map((a) => [a.name, a.client]));
      for (const t of tasks)
        if (t.assignee && !clients.has(t.assignee))
          clients.set(t.assignee, t.session?.agent === t.assignee ? t.session.client : null);
      const titles = new Map(tasks.map((t) => [t.id, t.title]));
      const overlaps = new Map<number, BoardOverlap[]>();
      // The start gate's own list and rule: tasks someone works on, their declared scopes only.
      for (const [task, list] of this.runningOverlaps(await workingTasks(db))) {
        overlaps.set(
          parseId('task', task),
          list.map((o) => ({
            task: o.task,
            title: titles.get(parseId('task', o.task)) ?? null,
            agent: o.agent,
            paths: o.paths,
          })),
        );
      }
      return {
        cards: boardCards(tasks, dependencies, waiting, clients, overlaps, await agentNames(db, agents)),
        agents: [...clients].map(([name, client]) => ({ name, client })).sort((a, b) => a.name.localeCompare(b.name)),
      };
    });
  }

  /**
   * Pressure on files and folders for the Explorer: the stigmergy field rolled up to folders
   * once (a mark on `src/auth/login.ts` counts for the file, `src/auth` and `src`), with the
   * title and agent of each running task that marked them. Empty without a field. The field keeps
   * its roll-up up to date by reading only what changed; unchanged, this is the same answer
   * (titles and agents are read again when the marks change). Intensities are faded to the
   * roll-up's moment, at most one half-life old.
   */
  async pressure(): Promise<ExplorerPressure[]> {
    if (!this.stigmergy) return [];
    // The field keeps its roll-up up to date; unchanged, it hands back the same paths (and this the same answer).
    const rolled = await this.stigmergy.pressureRollUp();
    const last = this.lastPressure;
    if (last && last.paths === rolled.paths) return last.value;
    const ids = rolled.taskIds;
    const tasks = new Map<string, PressureTask>();
    await this.engine.read(async (db) => {
      for (let i = 0; i < ids.length; i += 500) {
        const slice = ids.slice(i, i + 500);
        const rows = await db.all<{ id: number; title: string; assignee: string | null; status: string }>(
          `SELECT id, title, assignee, status FROM tasks WHERE id IN (${slice.map(() => '?').join(', ')})`,
          slice,
        );
        for (const r of rows) {
          const key = taskKey(Number(r.id));
          tasks.set(key, { key, title: r.title, agent: r.assignee, status: r.status });
        }
      }
    });
    // A path the change did not touch is the same object as before (both lists sorted by path): its answer too, while the titles stay the same.
    const same =
      last !== undefined &&
      last.tasks.size === tasks.size &&
      [...tasks].every(([k, t]) => {
        const was = last.tasks.get(k);
        return was?.title === t.title && was.agent === t.agent && was.status === t.status;
      });
    const before = same ? last.paths : [];
    // A path's lists are kept by the roll-up while its marks stay the same (also when its numbers move to a new moment).
    const lists = same
      ? last.lists
      : {
          tasks: new WeakMap<string[], ExplorerPressure['tasks']>(),
          others: new WeakMap<string[], string[]>(),
          changed: new WeakMap<string[], string[]>(),
        };
    const named = (keys: string[]) => {
      let out = lists.tasks.get(keys);
      if (!out)
        lists.tasks.set(
          keys,
          (out = keys.map((k) => tasks.get(k) ?? { key: k, title: null, agent: null, status: null })),
        );
      return out;
    };
    const changedBy = (types: string[]) => {
      let out = lists.changed.get(types);
      if (!out)
        lists.changed.set(
          types,
          (out = [...new Set(types.filter((t) => t.startsWith('changed:')).map((t) => markTypeTask(t)!))]),
        );
      return out;
    };
    const others = (types: string[]) => {
      let out = lists.others.get(types);
      if (!out) lists.others.set(types, (out = types.filter((t) => markTypeTask(t) === null)));
      return out;
    };
    const value: ExplorerPressure[] = new Array(rolled.paths.length);
    for (let i = 0, j = 0; i < rolled.paths.length; i++) {
      const p = rolled.paths[i];
      while (j < before.length && before[j] !== p && before[j].path < p.path) j++;
      value[i] =
        j < before.length && before[j] === p
          ? last!.value[j++]
          : {
              path: p.path,
              intensity: p.intensity,
              tasks: named(p.tasks),
              changedBy: changedBy(p.types),
              others: others(p.types),
            };
    }
    this.lastPressure = { paths: rolled.paths, tasks, lists, value };
    return value;
  }

  /**
   * overlapsAmongRunning over the declared scopes of the tasks someone works on — what the start
   * gate compares (startGates.ts), so the Board warns exactly where a start would be refused; a
   * `**` scope (the built-in agents') declares nothing. Kept while those tasks and scopes stay the same.
   */
  private runningOverlaps(running: readonly RunningTask[]): Map<string, RunningOverlap[]> {
    const key = running
      .map((r) => `${r.taskId}\u0000${r.agentId ?? ''}\u0000${r.writeScope.join('\u0000')}`)
      .join('\u0001');
    if (this.lastOverlaps?.key !== key) this.lastOverlaps = { key, value: overlapsAmongRunning(running) };
    return this.lastOverlaps.value;
  }

  /** A workflow's tasks and their dependencies, laid out as a DAG. */
  async planGraph(workflowId: number): Promise<PlanGraphModel> {
    const { workflow, tasks, dependencies } = await this.engine.read(async (db) => {
      const workflow = await db.get<{ id: number; name: string }>('SELECT id, name FROM workflows WHERE id = ?', [
        workflowId,
      ]);
      if (!workflow) throw notFound('workflow', workflowId);
      const rows = await db.all<{
        id: number;
        title: string;
        status: string;
        result: string | null;
        assignee: string | null;
        progress: number | null;
        held_by: string | null;
        waiting: string | null;
        parent_id: number | null;
      }>(
        'SELECT id, title, status, result, assignee, progress, held_by, waiting, parent_id FROM tasks WHERE workflow_id = ? ORDER BY id',
        [workflowId],
      );
      const sessions = await latestSessions(db, workflowId);
      const tasks = rows.map((r): PlanTaskRow => ({
        id: Number(r.id),
        title: r.title,
        status: r.status,
        result: r.result,
        agent: r.assignee ?? sessions.get(Number(r.id))?.agent ?? null,
        progress: r.progress === null ? null : Number(r.progress),
        why: nodeWhy(r.status, r.held_by, r.waiting ? (JSON.parse(r.waiting) as TaskWaiting) : null),
        parentId: r.parent_id === null ? null : Number(r.parent_id),
      }));
      return { workflow, tasks, dependencies: await readDependencies(db, workflowId) };
    });
    return planGraphModel(
      { id: Number(workflow.id), key: workflowKey(Number(workflow.id)), name: workflow.name },
      tasks,
      dependencies,
      (input) => this.place(workflowId, input),
    );
  }

  /** dagre's layout of `input`, reused while the workflow's nodes and edges stay the same. */
  private place(workflowId: number, input: LayoutInput): PlacedGraph {
    const shape = JSON.stringify(input);
    const kept = this.layouts.get(workflowId);
    if (kept?.shape === shape) return kept.placed;
    const placed = layoutGraph(input);
    this.layouts.delete(workflowId);
    this.layouts.set(workflowId, { shape, placed });
    if (this.layouts.size > keptLayouts) this.layouts.delete(this.layouts.keys().next().value!);
    return placed;
  }
}
