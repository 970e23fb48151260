import type { AsyncSqlReader, LedgerEngine } from '../../ports/store';
import { nodeTaskId, workflowOfId } from '../../events/correlation';
import { coordinationError } from '../../coordination/coordinationErrors';
import { isLockActive } from '../../coordination/plans/graphLocks';
import { readLatest, readLock } from '../../coordination/plans/graphStore';
import type { GraphNode } from '../../coordination/plans/planGraph';
import { openTransactions } from '../../coordination/plans/transactions/transactionStore';
import { scopeConflicts, unmetDependencies } from '../startGates';
import type { ValuesExplainInput, ValuesExplainOutput } from './stepGuardsContracts';

/**
 * values_explain: why each step of a plan may or may not start now. A step is a node of a
 * workflow's plan graph that is a ledger task (`task-<id>`), and it starts when the gates every
 * launch passes let it (startGates.ts: the runner, get_my_task, worker_command): it is open, the
 * steps it depends on are done, and what it writes overlaps no running task. The plan itself is
 * guarded too: another holder's lock refuses changes to it, and another owner's open transaction
 * refuses a lock. Read-only: it answers from one read of the store, and starts nothing.
 */
type Step = ValuesExplainOutput['steps'][number];
type Violation = ValuesExplainOutput['violations'][number];
type Guard = Step['guards'][number];

const finished = new Set(['done', 'failed', 'cancelled']);

export class StepGuardService {
  constructor(
    private readonly engine: LedgerEngine,
    private readonly clock: () => number = Date.now,
  ) {}

  explain(input: Pick<ValuesExplainInput, 'graph_id' | 'node_ids' | 'limit' | 'owner'>) {
    return this.engine.read(async (db) => {
      const now = this.clock();
      const stored = await readLatest(db, input.graph_id);
      if (!stored)
        throw coordinationError('E-RES-NOT-FOUND', `graph '${input.graph_id}' does not exist`, {
          graph_id: input.graph_id,
        });
      const byId = new Map(stored.graph.nodes.map((n) => [n.id, n]));
      const limit = input.limit ?? 100;
      let nodes: GraphNode[];
      if (input.node_ids) {
        const missing = input.node_ids.filter((id) => !byId.has(id));
        if (missing.length > 0)
          throw coordinationError(
            'E-RES-NOT-FOUND',
            `graph '${input.graph_id}' has no node ${missing.slice(0, 5).join(', ')}`,
            { graph_id: input.graph_id, missing },
          );
        nodes = [...new Set(input.node_ids)].map((id) => byId.get(id)!);
      } else nodes = stored.graph.nodes.slice(0, limit);

      const violations: Violation[] = [];
      const steps: Step[] = [];
      for (const node of nodes) steps.push(await this.step(db, input.graph_id, node, violations));

      const lock = await readLock(db, input.graph_id);
      const activeLock = isLockActive(lock, now) ? lock : null;
      const transactions = await openTransactions(db, input.graph_id, now);
      const owner = input.owner?.trim() ?? null;
      const mayChange = activeLock === null || activeLock.holder === owner;
      const others = transactions.filter((t) => t.owner === null || t.owner !== owner);
      if (!mayChange)
        violations.push({
          node_id: null,
          node_label: null,
          guard: 'lock',
          code: 'E-GRAPH-MUTATION-LOCKED',
          message: `'${activeLock.holder}' locks the plan${owner ? `, not ${owner}` : ''}: changes by anyone else are refused`,
          hint: `wait for '${activeLock.holder}' to release the lock (graph_unlock) or for it to lapse${activeLock.expires_at ? ` at ${new Date(activeLock.expires_at).toISOString()}` : ''}`,
          blocked_by: [activeLock.holder],
        });
      if (others.length > 0)
        violations.push({
          node_id: null,
          node_label: null,
          guard: 'transaction',
          code: 'E-TX-OPEN',
          message: `${others.length} transaction(s) of ${[...new Set(others.map((t) => t.owner ?? 'no owner'))].join(', ')} open on the plan: a lock by anyone else is refused until they end`,
          hint: 'wait for them to be committed or rolled back (tx_commit, tx_rollback) or to expire',
          blocked_by: others.map((t) => t.tx_id),
        });
      const allowedSteps = steps.filter((s) => s.allowed).length;
      return {
        graph_id: input.graph_id,
        graph_version: stored.graph.graph_version,
        decision: {
          allowed: allowedSteps === steps.length,
          steps: steps.length,
          allowed_steps: allowedSteps,
          truncated: !input.node_ids && stored.graph.nodes.length > limit,
        },
        steps,
        plan: {
          lock: activeLock
            ? { holder: activeLock.holder, lock_id: activeLock.lock_id, expires_at: activeLock.expires_at }
            : null,
          transactions: transactions.map((t) => ({
            tx_id: t.tx_id,
            owner: t.owner,
            base_version: t.base_version,
            expires_at: t.expires_at,
          })),
          may_change: mayChange,
          may_lock: mayChange && others.length === 0,
        },
        violations,
      };
    });
  }

  /** One step against each guard a start checks, in that order; every failed guard is a violation. */
  private async step(db: AsyncSqlReader, graphId: string, node: GraphNode, violations: Violation[]): Promise<Step> {
    const guards: Guard[] = [];
    const held = (guard: Guard['guard'], code: string | null, message: string, hint: string, blockedBy: string[]) => {
      guards.push({ guard, passed: false, message });
      violations.push({
        node_id: node.id,
        node_label: node.label,
        guard,
        code,
        message,
        hint,
        blocked_by: blockedBy,
      });
    };
    const step = (taskId: number | null, status: string | null): Step => ({
      node_id: node.id,
      node_label: node.label,
      task_id: taskId,
      status,
      allowed: guards.every((g) => g.passed),
      guards,
    });
    const taskId = nodeTaskId(node.id);
    const task =
      taskId === null
        ? undefined
        : await db.get<{ status: string; workflow_id: number | null }>(
            'SELECT status, workflow_id FROM tasks WHERE id = ?',
            [taskId],
          );
    if (taskId === null || !task) {
      held(
        'task',
        null,
        taskId === null
          ? `${node.id} is not a ledger task (task-<id>): nothing in the ledger starts it`
          : `${node.id} names a task that does not exist`,
        'a plan step the ledger starts is a node task-<id> of a task of the workflow',
        [],
      );
      return step(taskId, null);
    }
    guards.push({ guard: 'task', passed: true, message: `${node.id} is a task of the ledger` });
    if (task.status === 'open') guards.push({ guard: 'status', passed: true, message: 'it is open' });
    else
      held(
        'status',
        null,
        finished.has(task.status) ? `it has ended (${task.status})` : `it has already started (${task.status})`,
        finished.has(task.status)
          ? 'an ended task does not start again; create a new task for more work'
          : 'it is running: wait for it to end',
        [],
      );
    const unmet = await unmetDependencies(db, taskId, workflowOfId(graphId) ?? task.workflow_id ?? undefined);
    if (unmet.length === 0)
      guards.push({ guard: 'dependencies', passed: true, message: 'every step it depends on is done' });
    else
      held(
        'dependencies',
        'E-TASK-BLOCKED',
        `it waits for ${unmet.map((d) => `${d.id} (${d.status})`).join(', ')}`,
        'it starts when those are done (a person may start it anyway with force: true)',
        unmet.map((d) => d.id),
      );
    const { writeScope, conflicts } = await scopeConflicts(db, taskId);
    if (conflicts.length === 0)
      guards.push({
        guard: 'write_scope',
        passed: true,
        message:
          writeScope.length === 0
            ? 'it declares no write scope narrower than the workspace, so no running task can overlap it'
            : `what it writes (${writeScope.join(', ')}) overlaps no running task`,
      });
    else
      held(
        'write_scope',
        'E-CNP-SCOPE-CONFLICT',
        `it would write where running tasks write: ${conflicts
          .map(
            (c) =>
              `${c.runningTaskId}${c.runningAgentId ? ` (${c.runningAgentId})` : ''}: ${c.pairs.map((p) => `${p.left} ~ ${p.right}`).join(', ')}`,
          )
          .join('; ')}`,
        'it starts when those tasks end (a person may start it anyway with allowOverlap: true)',
        conflicts.map((c) => c.runningTaskId),
      );
    return step(taskId, task.status);
  }
}
