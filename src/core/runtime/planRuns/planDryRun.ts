import type { AsyncSqlReader } from '../../ports/store';
import { errorMessage } from '../../errors';
import { nodeTaskId } from '../../events/correlation';
import { taskKey } from '../../ids';
import { scopeOverlaps } from '../../tasks/scopeOverlap';
import { declaredScope } from '../../scheduling/startGates';
import type { AgentDirectory } from '../pm/projectRows';
import { launchedAs } from '../runner/launchProfile';
import type { BtNode, CompiledTree, NamedNode } from './behaviourTree';
import { childrenOf, isLeaf, leavesOf } from './behaviourTree';
import type { TaskView } from './btTick';
import type { PlanDryRunOutput } from './planRunContracts';
import { taskViews } from './planRunRows';

/**
 * What a run would do if nothing failed, without doing any of it: each leaf's wave (leaves of
 * one wave may run at once: a sequence puts its children one after the other, a leaf waits for
 * what it is `after`, a fallback only runs after its primary), its agent and the write scope it
 * declares, what the runner would start for it (the client and model, with the run's `client` and
 * `model` as plan_run_bt takes them), and the pairs of one wave whose write scopes overlap — the
 * runner would run those one after the other. `problems` says what would stop the run from starting.
 */
export async function planDryRun(
  db: AsyncSqlReader,
  tree: CompiledTree & { root: NamedNode },
  options: {
    agentOf(leaf: Extract<BtNode, { type: 'task' }>, task: TaskView | undefined): string | null;
    agents: AgentDirectory;
    /** The run's `client` and `model` (each agent's own when absent). */
    run: { client?: string; model?: string };
  },
): Promise<PlanDryRunOutput> {
  const waves = wavesOf(tree.root);
  const leaves = leavesOf(tree.root);
  const ids = leaves.flatMap((l) => (l.type === 'task' ? [nodeTaskId(l.node_id)!] : []));
  const tasks = await taskViews(db, ids);
  const rows = new Map<number, { title: string; areas: string; write_scope: string | null }>();
  for (const id of new Set(ids)) {
    const row = await db.get<{ title: string; areas: string; write_scope: string | null }>(
      'SELECT title, areas, write_scope FROM tasks WHERE id = ?',
      [id],
    );
    if (row) rows.set(id, row);
  }
  const problems: string[] = [];
  const order = leaves
    .map((leaf) => {
      const taskId = leaf.type === 'task' ? nodeTaskId(leaf.node_id)! : null;
      const row = taskId === null ? undefined : rows.get(taskId);
      let agent: string | null = null;
      let launch: { client: string; model: string | null } | null = null;
      let scope: string[] = [];
      if (leaf.type === 'task') {
        const task = tasks.get(taskId!);
        if (!row) problems.push(`${leaf.node_id} (leaf ${leaf.id}) does not exist`);
        agent = options.agentOf(leaf, task);
        if (agent === null && task?.status !== 'done') problems.push(`no agent for ${leaf.node_id}`);
        let agentScope: string[] = [];
        if (agent !== null) {
          try {
            const definition = options.agents.lookup(agent);
            agentScope = declaredScope(definition.scope.write);
            // Read as plan_run_bt reads it (a broken launch block is a problem), shown where it launches.
            const run = launchedAs(definition, options.run);
            if (launches(task)) launch = run;
          } catch (err) {
            problems.push(`${leaf.node_id}: ${errorMessage(err)}`);
          }
        }
        const own = row ? declaredScope(ownScope(row)) : [];
        scope = own.length > 0 ? own : agentScope;
      }
      return {
        wave: waves.get(leaf.id) ?? 0,
        id: leaf.id,
        type: leaf.type,
        task_id: taskId === null ? null : taskKey(taskId),
        title: row?.title ?? (leaf.type === 'gate' ? leaf.title : leaf.type === 'tool' ? leaf.tool : null),
        agent,
        client: launch?.client ?? null,
        model: launch?.model ?? null,
        write_scope: scope,
        after: leaf.after ?? [],
      };
    })
    .sort((a, b) => a.wave - b.wave);
  const conflicts: PlanDryRunOutput['conflicts'] = [];
  for (let i = 0; i < order.length; i++)
    for (let j = i + 1; j < order.length; j++) {
      const a = order[i];
      const b = order[j];
      if (a.wave !== b.wave || a.task_id === null || b.task_id === null) continue;
      const pairs = scopeOverlaps(a.write_scope, b.write_scope);
      if (pairs.length > 0)
        conflicts.push({ a: a.task_id, b: b.task_id, overlap: [...new Set(pairs.flatMap((p) => [p.left, p.right]))] });
    }
  return { tree_id: tree.id, order, conflicts, problems };
}

/** Whether the run would queue the task: not when it is done or cancelled, nor when an agent has it queued already (the run follows it). */
function launches(task: TaskView | undefined): boolean {
  if (!task || task.status === 'done' || task.status === 'cancelled') return false;
  return !(task.status === 'in_progress' && task.assignee !== null);
}

function ownScope(row: { areas: string; write_scope: string | null }): string[] {
  const scopes = row.write_scope ? (JSON.parse(row.write_scope) as { write?: string[] }[]) : [];
  const write = scopes.flatMap((s) => s.write ?? []);
  return [...new Set(write.length > 0 ? write : (JSON.parse(row.areas) as string[]))];
}

/**
 * The wave of every leaf: the earliest it could start if everything before it succeeded at once.
 * Computed to a fixed point, since `after` may name a node placed later in the tree.
 */
function wavesOf(root: NamedNode): Map<string, number> {
  const wave = new Map<string, number>();
  const end = new Map<string, number>();
  for (let pass = 0; pass < 1000; pass++) {
    let moved = false;
    const place = (node: BtNode, start: number): number => {
      if (isLeaf(node)) {
        const after = Math.max(start, ...(node.after ?? []).map((d) => end.get(d) ?? 0));
        if (wave.get(node.id!) !== after) {
          wave.set(node.id!, after);
          moved = true;
        }
        end.set(node.id!, after + 1);
        return after + 1;
      }
      let finish = start;
      const kids = childrenOf(node);
      if (node.type === 'parallel') for (const c of kids) finish = Math.max(finish, place(c, start));
      else if (node.type === 'sequence') for (const c of kids) finish = place(c, finish);
      else if (node.type === 'selector') {
        // An alternative runs only after the one before it failed; the selector ends with its first.
        let at = start;
        kids.forEach((c, i) => {
          at = place(c, at);
          if (i === 0) finish = at;
        });
      } else finish = place(kids[0], start);
      if (end.get(node.id!) !== finish) {
        end.set(node.id!, finish);
        moved = true;
      }
      return finish;
    };
    place(root, 0);
    if (!moved) break;
  }
  return wave;
}
