import { LedgerError } from '../../errors';
import type { FlowTemplate, PhaseDef } from './flowTemplate';
import { forTask, phaseDef, producerOf } from './flowTemplate';
import type { PipelineState, PipelineTask } from './pipelineState';
import { COMPLETED_PHASE, SETUP_PHASE } from './pipelineState';
import { activeReviewPhase, isSkipped, nextBatch } from './phaseProgress';
import { checkpointText, escalationText, humanGateText } from './presentation';
import { renderSummary } from './summary';
import { minimalTasksMarkdown } from './tasksParser';

/**
 * The engine's decision (the pipeline contract's `Engine.NextAction()`): what the orchestrator does next,
 * from the state alone. Pure and deterministic — the same state always gives the same step;
 * the prompt text is assembled from it afterwards.
 */
export type Step =
  | {
      type: 'spawn_agent';
      phase: string;
      label: string;
      agent: string;
      model: string;
      /** Artifact names inside the pipeline folder; `{task_id}` when several tasks run at once. */
      inputs: string[];
      output: string;
      taskIds: string[];
      /** Set when the phase runs again: who sent it back, which round, and any human comment. */
      revision: { by: string; round: number; comments: string[] } | null;
    }
  | { type: 'checkpoint'; phase: string; label: string; name: string; options: string[]; present: string }
  | {
      type: 'human_gate';
      phase: string;
      label: string;
      name: string;
      options: string[];
      present: string;
      taskId: string;
    }
  | { type: 'exec'; phase: string; label: string; commands: string[]; setupOnly: boolean }
  | { type: 'write_file'; phase: string; label: string; artifact: string; content: string }
  | { type: 'done'; summary: string; summaryArtifact: string | null };

export const checkpointOptions = ['approve', 'reject'];
export const humanGateOptions = ['done', 'skip', 'abandon'];

export function nextStep(state: PipelineState, flow: FlowTemplate): Step {
  if (state.status === 'completed' || state.current_phase === COMPLETED_PHASE) return doneStep(state, flow);
  if (state.status === 'abandoned') {
    const last = state.log[state.log.length - 1];
    return {
      type: 'done',
      summary: `Pipeline abandoned at ${state.current_phase}${last?.detail ? `: ${last.detail}` : ''}`,
      summaryArtifact: null,
    };
  }
  if (state.escalation) {
    const def = requirePhase(flow, state.escalation.phase);
    return {
      type: 'checkpoint',
      phase: def.id,
      label: `${def.label}: revision limit`,
      name: `${def.id}-retry-limit`,
      options: checkpointOptions,
      present: escalationText(state, flow),
    };
  }
  if (state.current_phase === SETUP_PHASE) {
    return {
      type: 'exec',
      phase: SETUP_PHASE,
      label: 'Setup: create the branch',
      commands: ['git', 'checkout', '-b', state.branch ?? 'agent-ledger/pipeline'],
      setupOnly: true,
    };
  }
  const def = requirePhase(flow, state.current_phase);
  switch (def.kind) {
    case 'agent':
    case 'tasks':
    case 'review':
      return spawn(state, flow, def, [], def.output ?? '');
    case 'checkpoint':
      return {
        type: 'checkpoint',
        phase: def.id,
        label: def.label,
        name: def.id,
        options: checkpointOptions,
        present: checkpointText(state, flow, def),
      };
    case 'implementation':
      return implementationStep(state, flow, def);
    case 'code_review': {
      const ids = state.tasks.filter((t) => t.status === 'implemented').map((t) => t.id);
      if (ids.length === 0) throw inconsistent(state, 'the code review phase has no implemented task to review');
      return spawn(state, flow, def, ids, def.output ?? '');
    }
    case 'exec':
      return {
        type: 'exec',
        phase: def.id,
        label: def.label,
        commands: (def.command ?? []).map((arg) => fillPlaceholders(arg, state)),
        setupOnly: false,
      };
    case 'summary':
      return {
        type: 'write_file',
        phase: def.id,
        label: def.label,
        artifact: def.output ?? 'summary.md',
        content: renderSummary(state, flow),
      };
  }
}

function implementationStep(state: PipelineState, flow: FlowTemplate, def: PhaseDef): Step {
  if (state.tasks.length === 0) {
    return {
      type: 'write_file',
      phase: def.id,
      label: `${def.label}: task list`,
      artifact: 'tasks.md',
      content: minimalTasksMarkdown(state.title),
    };
  }
  const batch = nextBatch(state.tasks);
  if (!batch) throw inconsistent(state, 'the implementation phase has no task left to implement');
  if (batch.kind === 'human') {
    const t = batch.task;
    return {
      type: 'human_gate',
      phase: def.id,
      label: `${def.label}: Task ${t.id} (human)`,
      name: `task-${t.id}`,
      options: humanGateOptions,
      present: humanGateText(state, t),
      taskId: t.id,
    };
  }
  return spawn(
    state,
    flow,
    def,
    batch.tasks.map((t) => t.id),
    def.output ?? 'impl-{task_id}.md',
  );
}

function spawn(state: PipelineState, flow: FlowTemplate, def: PhaseDef, taskIds: string[], output: string): Step {
  const one = taskIds.length === 1 ? taskIds[0] : null;
  const concrete = (name: string): string => (one ? forTask(name, one) : name);
  const inputs = def.inputs.filter((name) => isAvailable(state, flow, name)).map(concrete);
  const revision = revisionOf(state, flow, def, taskIds);
  if (revision)
    for (const extra of revision.inputs) if (!inputs.includes(concrete(extra))) inputs.push(concrete(extra));
  const round = revision?.round ?? 0;
  return {
    type: 'spawn_agent',
    phase: def.id,
    label: `${def.label}${taskIds.length ? `: Task${taskIds.length > 1 ? 's' : ''} ${taskIds.join(', ')}` : ''}${round ? ` (revision ${round})` : ''}`,
    agent: def.agent ?? def.id,
    model: def.model ?? flow.default_model,
    inputs,
    output: concrete(output),
    taskIds,
    revision: revision ? { by: revision.by, round, comments: revision.comments } : null,
  };
}

/** An input is offered unless the phase that writes it is skipped in this pipeline. */
function isAvailable(state: PipelineState, flow: FlowTemplate, name: string): boolean {
  const producer = producerOf(flow, name);
  return !producer || !isSkipped(state, producer.id);
}

function revisionOf(
  state: PipelineState,
  flow: FlowTemplate,
  def: PhaseDef,
  taskIds: string[],
): { by: string; round: number; inputs: string[]; comments: string[] } | null {
  if (def.kind === 'implementation') {
    const revising = state.tasks.filter((t) => taskIds.includes(t.id) && t.status === 'revise');
    if (revising.length === 0) return null;
    const review = activeReviewPhase(state, flow);
    return {
      by: review?.id ?? def.id,
      round: Math.max(...revising.map((t) => t.attempts)),
      inputs: review?.output ? [review.output] : [],
      comments: [],
    };
  }
  const record = state.phases[def.id];
  if (!record || record.revision === 0 || !record.revised_by) return null;
  // The latest review of this phase is worth reading whoever sent it back.
  const reviews = flow.phases.filter(
    (p) =>
      p.kind === 'review' && p.revises === def.id && !isSkipped(state, p.id) && p.output && state.phases[p.id]?.verdict,
  );
  const comments = state.decisions
    .filter((d) => d.name === record.revised_by && d.decision === 'reject' && d.comment)
    .map((d) => `${d.comment} — ${d.decided_by}, ${d.decided_at}`);
  return {
    by: record.revised_by,
    round: record.revision,
    inputs: reviews.map((p) => p.output ?? ''),
    comments: comments.slice(-1),
  };
}

function doneStep(state: PipelineState, flow: FlowTemplate): Step {
  const ran = flow.phases.filter((p) => state.phases[p.id]?.status === 'completed').length;
  const skipped = state.skipped_phases.length;
  const summary = flow.phases.find((p) => p.kind === 'summary' && state.phases[p.id]?.status === 'completed');
  return {
    type: 'done',
    summary: `Pipeline completed: ${ran} phases, ${skipped} skipped`,
    summaryArtifact: summary?.output ?? null,
  };
}

function requirePhase(flow: FlowTemplate, id: string): PhaseDef {
  const def = phaseDef(flow, id);
  if (!def)
    throw new LedgerError(
      'ConfigError',
      `the pipeline is at phase "${id}", which the flow ${flow.source} does not define; restore that phase in the flow or edit current_phase in state.json`,
      { phase: id },
    );
  return def;
}

function inconsistent(state: PipelineState, what: string): LedgerError {
  return new LedgerError(
    'InvalidStatus',
    `${state.workspace}/state.json is inconsistent: ${what} (current_phase ${state.current_phase})`,
    { workspace: state.workspace },
  );
}

/** `{branch}`, `{pr_title}`, `{pr_body}`, `{workspace}` in an exec argument. */
export function fillPlaceholders(arg: string, state: PipelineState): string {
  const prefix = state.branch?.startsWith('fix/') ? 'fix' : 'feat';
  const values: Record<string, string> = {
    branch: state.branch ?? '',
    workspace: state.workspace,
    pr_title: `${prefix}: ${state.title}`.slice(0, 120),
    pr_body: `${state.source.url ? `Resolves ${state.source.url}\n\n` : ''}Pipeline: ${state.workspace} (effort ${state.effort}).\nDesign: ${state.workspace}/design.md`,
  };
  return arg.replace(/\{(branch|workspace|pr_title|pr_body)\}/g, (_m, key: string) => values[key]);
}

/** The tasks a step is about, for callers that need the task records. */
export function stepTasks(state: PipelineState, step: Step): PipelineTask[] {
  if (step.type === 'spawn_agent') return state.tasks.filter((t) => step.taskIds.includes(t.id));
  if (step.type === 'human_gate') return state.tasks.filter((t) => t.id === step.taskId);
  return [];
}
