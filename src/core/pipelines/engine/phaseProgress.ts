import type { FlowTemplate, PhaseDef } from './flowTemplate';
import type { PipelineState, PipelineTask } from './pipelineState';
import { addLog, COMPLETED_PHASE, SETUP_PHASE } from './pipelineState';

/**
 * Moving through the flow: forward to the next phase that is not skipped, back to the phase
 * a rejection names, and through the tasks of the implementation phase. Every function here
 * mutates the (already cloned) state it is given.
 */

export function isSkipped(state: PipelineState, id: string): boolean {
  return state.skipped_phases.includes(id);
}

/** The first non-skipped phase after `id` (after 'setup' means the first phase), or 'completed'. */
export function nextPhaseAfter(state: PipelineState, flow: FlowTemplate, id: string): string {
  const start = id === SETUP_PHASE ? 0 : flow.phases.findIndex((p) => p.id === id) + 1;
  for (let i = start; i < flow.phases.length; i++) if (!isSkipped(state, flow.phases[i].id)) return flow.phases[i].id;
  return COMPLETED_PHASE;
}

export function completePhase(state: PipelineState, id: string, now: string): void {
  const record = state.phases[id];
  if (!record) return;
  record.status = 'completed';
  record.started_at ??= now;
  record.completed_at = now;
  addLog(state, { at: now, event: 'phase_completed', phase: id });
}

/** Completes `id` and moves to the phase after it; finishing the last phase completes the pipeline. */
export function advanceFrom(state: PipelineState, flow: FlowTemplate, id: string, now: string): void {
  completePhase(state, id, now);
  const next = nextPhaseAfter(state, flow, id);
  state.current_phase = next;
  state.pending = null;
  if (next === COMPLETED_PHASE) {
    state.status = 'completed';
    state.completed_at = now;
    addLog(state, { at: now, event: 'pipeline_completed', phase: COMPLETED_PHASE });
  } else {
    state.status = 'running';
  }
}

/**
 * Sends the pipeline back to `target` because `by` (a review phase or a checkpoint) asked for
 * changes: every phase from the target to the current one runs again.
 */
export function goBack(state: PipelineState, flow: FlowTemplate, target: string, by: string, now: string): void {
  const from = flow.phases.findIndex((p) => p.id === target);
  const to = Math.max(
    from,
    flow.phases.findIndex((p) => p.id === state.current_phase),
  );
  for (let i = from; i <= to; i++) {
    const p = flow.phases[i];
    const record = state.phases[p.id];
    if (!record || record.status === 'skipped') continue;
    record.status = 'pending';
    record.completed_at = null;
  }
  const record = state.phases[target];
  record.revision += 1;
  record.revised_by = by;
  if (flow.phases[from].kind === 'tasks') state.tasks = [];
  state.current_phase = target;
  state.pending = null;
  state.status = 'running';
  addLog(state, { at: now, event: 'revision', phase: target, detail: `sent back by ${by}` });
}

export function implementationPhase(flow: FlowTemplate): PhaseDef | undefined {
  return flow.phases.find((p) => p.kind === 'implementation');
}

/** The code review phase, when the flow has one and this pipeline does not skip it. */
export function activeReviewPhase(state: PipelineState, flow: FlowTemplate): PhaseDef | undefined {
  const review = flow.phases.find((p) => p.kind === 'code_review');
  return review && !isSkipped(state, review.id) ? review : undefined;
}

export type Batch = { kind: 'agent'; tasks: PipelineTask[] } | { kind: 'human'; task: PipelineTask };

/**
 * The next tasks to implement: tasks a review failed first, then the first pending task —
 * with the pending `parallel` tasks that directly follow it, which run at the same time.
 */
export function nextBatch(tasks: readonly PipelineTask[]): Batch | null {
  const revise = tasks.filter((t) => t.status === 'revise');
  if (revise.length)
    return {
      kind: 'agent',
      tasks: revise[0].mode === 'parallel' ? revise.filter((t) => t.mode === 'parallel') : [revise[0]],
    };
  const start = tasks.findIndex((t) => t.status === 'pending');
  if (start < 0) return null;
  const first = tasks[start];
  if (first.mode === 'human') return { kind: 'human', task: first };
  if (first.mode !== 'parallel') return { kind: 'agent', tasks: [first] };
  const batch: PipelineTask[] = [];
  for (let i = start; i < tasks.length && tasks[i].status === 'pending' && tasks[i].mode === 'parallel'; i++)
    batch.push(tasks[i]);
  return { kind: 'agent', tasks: batch };
}

export function isTaskFinished(task: PipelineTask): boolean {
  return (
    task.status === 'passed' || task.status === 'accepted' || task.status === 'skipped' || task.status === 'failed'
  );
}

/**
 * After tasks changed state: back to implementation while work remains, else the
 * implementation (and its review) phases are complete and the flow moves on.
 */
export function continueImplementation(state: PipelineState, flow: FlowTemplate, now: string): void {
  const impl = implementationPhase(flow);
  if (!impl) return;
  const review = activeReviewPhase(state, flow);
  if (review && state.tasks.some((t) => t.status === 'implemented')) {
    state.current_phase = review.id;
    state.pending = null;
    return;
  }
  if (state.tasks.some((t) => !isTaskFinished(t))) {
    state.current_phase = impl.id;
    state.pending = null;
    return;
  }
  completePhase(state, impl.id, now);
  advanceFrom(state, flow, review ? review.id : impl.id, now);
}

/** Ends the pipeline at a human's request; open tasks count as failed. */
export function abandon(state: PipelineState, reason: string, now: string): void {
  state.status = 'abandoned';
  state.completed_at = now;
  state.pending = null;
  state.waiting = null;
  state.escalation = null;
  for (const t of state.tasks) if (!isTaskFinished(t)) t.status = 'failed';
  addLog(state, { at: now, event: 'pipeline_abandoned', phase: state.current_phase, detail: reason });
}
