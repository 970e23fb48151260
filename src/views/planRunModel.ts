import type { PlanNodeOutput, PlanRunOutput } from '../core/runtime/planRuns/planRunContracts';
import type { Services } from '../app/services';
import type { PlanNodeState, PlanRunAction, PlanRunLeafView, PlanRunMessage, PlanRunView } from '../shared/protocol';

/** The leaves a person follows: tasks, gates and the ledger's own tool calls. */
const LEAVES = new Set(['task', 'gate', 'tool']);

/**
 * Where a leaf stands, in a person's words: a task leaf the run queued is `queued` until an agent's
 * run of it goes on (`running`, with that execution); a gate that waits for a person is
 * `needs-person` (Approve); idle, waiting for its dependencies or held back by a pause: `waiting`.
 */
export function leafState(n: PlanNodeOutput): PlanNodeState {
  switch (n.status) {
    case 'success':
      return 'done';
    case 'failure':
      return 'failed';
    case 'skipped':
      return 'skipped';
    case 'cancelled':
      return 'cancelled';
    case 'running':
      if (n.type === 'task') return n.execution_id ? 'running' : 'queued';
      return 'running';
    case 'waiting':
      return n.type === 'gate' && n.reason?.startsWith('waits for a person') ? 'needs-person' : 'waiting';
    default:
      return 'waiting';
  }
}

/**
 * Who started a run, as a person reads it: `person:ann` → ann, `agent:7` → agent 7, a connection
 * with no agent logged in (the CLI, an MCP client) → the OS user it runs as.
 */
export function starterName(createdBy: string | null): string | null {
  if (!createdBy) return null;
  if (createdBy.startsWith('person:')) return createdBy.slice('person:'.length);
  if (createdBy.startsWith('agent:')) return `agent ${createdBy.slice('agent:'.length)}`;
  const connection = /^connection:[^/]*\/([^/]+)\/\d+$/.exec(createdBy);
  return connection ? connection[1] : createdBy;
}

/** A plan run as the Plan graph and the Board show it: the header's figures, each leaf, the buttons it has. */
export function planRunView(run: PlanRunOutput): PlanRunView {
  const leaves: PlanRunLeafView[] = run.nodes
    .filter((n) => LEAVES.has(n.type))
    .map((n) => ({
      id: n.id,
      kind: n.type as PlanRunLeafView['kind'],
      taskKey: n.task_id,
      graphNode: run.graph_id === null ? null : (n.task_id ?? n.id.split('~')[0]),
      state: leafState(n),
      agent: n.agent,
      executionId: n.execution_id,
      costUsd: n.cost_usd,
      reason: n.reason,
    }));
  const actions: PlanRunAction[] =
    run.status === 'running' ? ['pause', 'cancel'] : run.status === 'paused' ? ['resume', 'cancel'] : [];
  const workflow = /^wf-([1-9][0-9]*)$/.exec(run.graph_id ?? '');
  return {
    runId: run.run_id,
    graphId: run.graph_id,
    workflowId: workflow ? Number(workflow[1]) : null,
    status: run.status,
    // `paused by person:ann` → `paused by ann`: the person's name, as everywhere else on the page.
    reason: run.reason?.replace(/\bperson:(?=\S)/g, '') ?? null,
    startedBy: starterName(run.created_by),
    since: run.created_at,
    endedAt: run.ended_at,
    progress: {
      leaves: run.progress.leaves,
      done: run.progress.succeeded,
      failed: run.progress.failed,
      running: run.progress.running,
      waiting: run.progress.waiting,
      skipped: run.progress.skipped,
      percent: run.progress.percent,
    },
    costUsd: leaves.reduce((sum, l) => sum + (l.costUsd ?? 0), 0),
    actions,
    leaves,
  };
}

/** The run's line in a person's words: `plan-3 running · 1/3 done, 1 running · started by ann`. */
export function planRunSummary(v: PlanRunView): string {
  const p = v.progress;
  const parts = [`${p.done}/${p.leaves} done`];
  if (p.running) parts.push(`${p.running} running`);
  if (p.failed) parts.push(`${p.failed} failed`);
  if (p.skipped) parts.push(`${p.skipped} skipped or cancelled`);
  return `${v.runId} ${v.status} · ${parts.join(', ')}${v.startedBy ? ` · started by ${v.startedBy}` : ''}`;
}

/**
 * A person's Pause, Resume, Cancel or gate decision from a view, through the same service as
 * `agent-ledger plan …` and recorded as `person:<name>`; what it did, in a line. A refusal (the
 * run ended meanwhile, the gate was decided already) is thrown as the service's coded error.
 */
export async function steerPlanRun(services: Services, person: string, message: PlanRunMessage): Promise<string> {
  const runs = services.planRuns;
  if (message.type === 'planGate') {
    const r = await runs.asPerson(person, () =>
      runs.decideGate({ run_id: message.runId, node_id: message.nodeId, approve: message.approve }),
    );
    return `${message.nodeId} ${message.approve ? 'approved' : 'refused'}: ${r.run_id} is ${r.status}.`;
  }
  const r = await runs.asPerson(person, () =>
    message.action === 'pause'
      ? runs.pause(message.runId)
      : message.action === 'resume'
        ? runs.resume(message.runId)
        : runs.cancel(message.runId),
  );
  return `${r.run_id} is ${r.status}${r.not_stopped?.length ? ` (not stopped here: ${r.not_stopped.join('; ')})` : ''}.`;
}
