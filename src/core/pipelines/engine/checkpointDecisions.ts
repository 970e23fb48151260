import { stateError, validationError } from '../../errors';
import type { FlowTemplate } from './flowTemplate';
import { phaseDef } from './flowTemplate';
import type { DecisionRecord, PipelineState } from './pipelineState';
import { addLog, cloneState, isFinal } from './pipelineState';
import { abandon, advanceFrom, continueImplementation, goBack } from './phaseProgress';
import { nextStep } from './nextStep';

export interface DecisionInput {
  /** One of the waiting action's options; `approve`/`reject` also answer a human gate (done/abandon). */
  option: string;
  comment: string | null;
  decidedBy: string;
  via: string;
  now: string;
  /** When given, the decision only applies if this checkpoint is the one waiting (a stale button must not approve the next one). */
  expected?: string | null;
}

/**
 * A person's answer to the checkpoint or human gate the pipeline waits at. It applies to
 * whatever the engine's next step is, so an approval given before the agent even asked still
 * counts — and one given when nothing waits is refused.
 */
export function applyDecision(
  state: PipelineState,
  flow: FlowTemplate,
  input: DecisionInput,
): { state: PipelineState; decision: DecisionRecord } {
  if (isFinal(state))
    throw stateError(`${state.workspace} is ${state.status}; there is nothing to decide`, {
      workspace: state.workspace,
    });
  const step = nextStep(state, flow);
  if (step.type !== 'checkpoint' && step.type !== 'human_gate') {
    throw stateError(
      `nothing in ${state.workspace} waits for a decision: it is at ${state.current_phase} (next action: ${step.type})`,
      { workspace: state.workspace, phase: state.current_phase },
    );
  }
  if (input.expected && input.expected !== step.name) {
    throw stateError(
      `${input.expected} is not waiting in ${state.workspace}; ${step.name} is (refresh, then decide again)`,
      { workspace: state.workspace, waiting: step.name },
    );
  }
  const option = normalizeOption(input.option, step.type, step.options);
  const s = cloneState(state);
  const decision: DecisionRecord = {
    name: step.name,
    phase: step.phase,
    kind: step.type,
    decision: option,
    comment: input.comment?.trim() || null,
    decided_by: input.decidedBy,
    via: input.via,
    decided_at: input.now,
  };
  s.decisions.push(decision);
  s.waiting = null;
  s.status = 'running';
  addLog(s, {
    at: input.now,
    event: 'decided',
    phase: step.phase,
    detail: `${step.name}: ${option} by ${input.decidedBy} (${input.via})`,
  });
  const why = `${step.name} ${option === 'abandon' ? 'abandoned' : 'rejected'} by ${input.decidedBy}${decision.comment ? `: ${decision.comment}` : ''}`;

  if (s.escalation) {
    const esc = s.escalation;
    s.escalation = null;
    if (option !== 'approve') {
      abandon(s, why, input.now);
    } else if (phaseDef(flow, esc.phase)?.kind === 'code_review') {
      for (const t of s.tasks) if (esc.task_ids.includes(t.id)) t.status = 'accepted';
      continueImplementation(s, flow, input.now);
    } else {
      advanceFrom(s, flow, esc.phase, input.now);
    }
  } else if (step.type === 'checkpoint') {
    if (option === 'approve') {
      advanceFrom(s, flow, step.phase, input.now);
    } else {
      s.revisions[step.phase] = (s.revisions[step.phase] ?? 0) + 1;
      goBack(s, flow, phaseDef(flow, step.phase)?.revises ?? step.phase, step.phase, input.now);
    }
  } else {
    const task = s.tasks.find((t) => t.id === step.taskId);
    if (option === 'abandon') {
      abandon(s, why, input.now);
    } else {
      if (task) task.status = option === 'done' ? 'passed' : 'skipped';
      continueImplementation(s, flow, input.now);
    }
  }
  return { state: s, decision };
}

function normalizeOption(raw: string, kind: 'checkpoint' | 'human_gate', options: readonly string[]): string {
  let option = raw.trim().toLowerCase();
  if (kind === 'human_gate') option = option === 'approve' ? 'done' : option === 'reject' ? 'abandon' : option;
  if (!options.includes(option)) {
    throw validationError(
      `"${raw}" is not an answer to this ${kind === 'checkpoint' ? 'checkpoint' : 'human gate'}; answer one of ${options.map((o) => `"${o}"`).join(', ')}`,
      { options: [...options] },
    );
  }
  return option;
}

/**
 * Splits an agent's `user_response` ("reject: use the existing cache") into option and comment.
 */
export function parseUserResponse(text: string): { option: string; comment: string | null } {
  const m = /^\s*([A-Za-z_-]+)\s*(?:[:\-—,]\s*([\s\S]*))?$/.exec(text);
  if (!m) return { option: text.trim(), comment: null };
  return { option: m[1], comment: m[2]?.trim() || null };
}
