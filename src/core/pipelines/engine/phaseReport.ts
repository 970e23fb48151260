import { LedgerError, stateError, validationError } from '../../errors';
import type { FlowTemplate, PhaseDef } from './flowTemplate';
import { forTask, phaseDef } from './flowTemplate';
import type { PipelineState } from './pipelineState';
import { addLog, cloneState, emptyPhase, isFinal, SETUP_PHASE } from './pipelineState';
import {
  activeReviewPhase,
  advanceFrom,
  completePhase,
  continueImplementation,
  goBack,
  nextPhaseAfter,
} from './phaseProgress';
import type { Step } from './nextStep';
import { parseTasks, toPipelineTasks } from './tasksParser';
import type { Finding, Verdict } from './verdict';
import { isRejection, parseReview } from './verdict';

/** What the service read from disk for each artifact the pending action had to write. */
export interface ArtifactFact {
  /** null when the file does not exist. */
  text: string | null;
  /** False when its content is byte for byte what it was when the action was handed out. */
  changed: boolean;
}

export interface ReportInput {
  phase: string;
  tokens: number;
  durationMs: number;
  model: string | null;
  setupOnly: boolean;
  artifacts: Record<string, ArtifactFact>;
  now: string;
}

export type NextActionHint = 'proceed' | 'revision_required' | 'setup_continue';

export interface ReportOutcome {
  artifact_written: string | null;
  verdict_parsed: Verdict | null;
  findings: Finding[];
  next_action_hint: NextActionHint;
  warning: string;
}

/** The artifacts a step must leave in the pipeline folder (per task when several run at once). */
export function stepOutputs(step: Step): string[] {
  if (step.type === 'spawn_agent')
    return step.taskIds.length > 1 ? step.taskIds.map((id) => forTask(step.output, id)) : [step.output];
  if (step.type === 'write_file') return [step.artifact];
  return [];
}

/**
 * Records that `step` was handed to the orchestrator: the pending action (or the waiting
 * decision) and the phase's start. Returns the same object when nothing changes, so asking
 * again for the same action writes nothing.
 */
export function markIssued(
  state: PipelineState,
  step: Step,
  now: string,
  fingerprints: Record<string, string | null>,
): PipelineState {
  if (step.type === 'done') return state;
  if (step.type === 'checkpoint' || step.type === 'human_gate') {
    if (state.waiting?.name === step.name && state.status === 'awaiting_human') return state;
    const s = cloneState(state);
    s.waiting = {
      kind: step.type,
      name: step.name,
      phase: step.phase,
      options: step.options,
      task_id: step.type === 'human_gate' ? step.taskId : null,
      requested_at: now,
    };
    s.status = 'awaiting_human';
    s.pending = null;
    startPhase(s, step.phase, now);
    addLog(s, { at: now, event: 'waiting_for_human', phase: step.phase, detail: step.name });
    return s;
  }
  const outputs = stepOutputs(step);
  const taskIds = step.type === 'spawn_agent' ? step.taskIds : [];
  const p = state.pending;
  if (p && p.type === step.type && p.phase === step.phase && same(p.task_ids, taskIds) && same(p.outputs, outputs))
    return state;
  const s = cloneState(state);
  s.pending = {
    type: step.type,
    phase: step.phase,
    task_ids: taskIds,
    outputs,
    fingerprints,
    setup_only: step.type === 'exec' && step.setupOnly,
    issued_at: now,
  };
  s.status = 'running';
  startPhase(s, step.phase, now);
  addLog(s, {
    at: now,
    event: 'action_issued',
    phase: step.phase,
    detail: `${step.type}${taskIds.length ? ` tasks ${taskIds.join(',')}` : ''}`,
  });
  return s;
}

/**
 * The pipeline contract's handleReportResult: records metrics, validates the artifacts, parses verdicts and
 * moves the state on. Throws (changing nothing) when the report cannot be accepted.
 */
export function applyReport(
  state: PipelineState,
  flow: FlowTemplate,
  input: ReportInput,
): { state: PipelineState; outcome: ReportOutcome } {
  if (isFinal(state))
    throw stateError(`${state.workspace} is ${state.status}; there is nothing left to report`, {
      workspace: state.workspace,
    });
  if (state.waiting || state.escalation) {
    const name = state.waiting?.name ?? `${state.escalation?.phase}-retry-limit`;
    throw stateError(
      `${state.workspace} waits for a human decision at ${name}; only a person can pass it (call pipeline_next_action to see it)`,
      { workspace: state.workspace, checkpoint: name },
    );
  }
  const pending = state.pending;
  if (!pending)
    throw stateError(
      `nothing to report for ${input.phase}: call pipeline_next_action to get the current action (the pipeline is at ${state.current_phase})`,
      { phase: state.current_phase },
    );
  if (input.phase !== pending.phase) {
    throw validationError(
      `phase "${input.phase}" is not the running phase: the action handed out is for ${pending.phase}; report that phase (or call pipeline_next_action)`,
      { phase: pending.phase },
    );
  }
  const s = cloneState(state);
  const record = (s.phases[input.phase] ??= emptyPhase('in_progress'));
  record.metrics.tokens += Math.max(0, Math.round(input.tokens));
  record.metrics.duration_ms += Math.max(0, Math.round(input.durationMs));
  if (input.model) record.metrics.model = input.model;
  record.metrics.runs += 1;
  s.pending = null;
  const texts = validateOutputs(s, pending.phase, pending.outputs, input.artifacts);
  const outcome: ReportOutcome = {
    artifact_written: pending.outputs.length ? pending.outputs.join(', ') : null,
    verdict_parsed: null,
    findings: [],
    next_action_hint: 'proceed',
    warning: '',
  };

  if (pending.type === 'exec') {
    if (pending.phase === SETUP_PHASE) {
      s.branch_created = true;
      completePhase(s, SETUP_PHASE, input.now);
      s.current_phase = nextPhaseAfter(s, flow, SETUP_PHASE);
      outcome.next_action_hint = 'setup_continue';
    } else {
      advanceFrom(s, flow, pending.phase, input.now);
    }
    return { state: s, outcome };
  }
  const def = phaseDef(flow, pending.phase);
  if (!def) throw new LedgerError('ConfigError', `phase ${pending.phase} is not in the flow ${flow.source}`);
  if (pending.type === 'write_file' && def.kind === 'implementation') {
    s.tasks = toPipelineTasks(requireTasks(s, texts[pending.outputs[0]]));
    return { state: s, outcome };
  }
  switch (def.kind) {
    case 'tasks':
      s.tasks = toPipelineTasks(requireTasks(s, texts[pending.outputs[0]]));
      advanceFrom(s, flow, def.id, input.now);
      break;
    case 'review':
      reviewed(s, flow, def, texts[pending.outputs[0]], pending.outputs[0], outcome, input.now);
      break;
    case 'implementation':
      for (const t of s.tasks) {
        if (!pending.task_ids.includes(t.id)) continue;
        t.attempts += 1;
        t.status = activeReviewPhase(s, flow) ? 'implemented' : 'passed';
      }
      continueImplementation(s, flow, input.now);
      break;
    case 'code_review':
      codeReviewed(s, flow, def, pending.task_ids, texts, outcome, input.now);
      break;
    default:
      advanceFrom(s, flow, def.id, input.now);
  }
  return { state: s, outcome };
}

function reviewed(
  s: PipelineState,
  flow: FlowTemplate,
  def: PhaseDef,
  text: string,
  file: string,
  outcome: ReportOutcome,
  now: string,
): void {
  const review = parseReview(text, 'review');
  if (!review.verdict) throw noVerdict(s, file, 'APPROVE | APPROVE_WITH_NOTES | REVISE', review.foreign);
  const record = s.phases[def.id];
  record.verdict = review.verdict;
  record.findings = review.findings;
  outcome.verdict_parsed = review.verdict;
  outcome.findings = review.findings;
  if (!isRejection(review.verdict)) {
    advanceFrom(s, flow, def.id, now);
    return;
  }
  outcome.next_action_hint = 'revision_required';
  const rounds = s.revisions[def.id] ?? 0;
  if (rounds < flow.max_revisions) {
    s.revisions[def.id] = rounds + 1;
    goBack(s, flow, def.revises ?? def.id, def.id, now);
    return;
  }
  s.escalation = {
    phase: def.id,
    reason: `${def.label} asked for changes ${rounds + 1} times; the limit is ${flow.max_revisions} revision(s).`,
    task_ids: [],
  };
  outcome.warning = `revision limit reached: a person decides at ${def.id}-retry-limit`;
}

function codeReviewed(
  s: PipelineState,
  flow: FlowTemplate,
  def: PhaseDef,
  taskIds: string[],
  texts: Record<string, string>,
  outcome: ReportOutcome,
  now: string,
): void {
  const output = def.output ?? 'review-{task_id}.md';
  const escalate: string[] = [];
  const order: Verdict[] = ['PASS', 'PASS_WITH_NOTES', 'FAIL'];
  let worst: Verdict | null = null;
  const findings: Finding[] = [];
  for (const t of s.tasks.filter((t) => taskIds.includes(t.id))) {
    const file = forTask(output, t.id);
    const review = parseReview(texts[file], 'code');
    if (!review.verdict) throw noVerdict(s, file, 'PASS | PASS_WITH_NOTES | FAIL', review.foreign);
    t.verdict = review.verdict;
    t.findings = review.findings;
    findings.push(
      ...review.findings.map((f) => (taskIds.length > 1 ? { ...f, description: `Task ${t.id}: ${f.description}` } : f)),
    );
    if (worst === null || order.indexOf(review.verdict) > order.indexOf(worst)) worst = review.verdict;
    if (review.verdict !== 'FAIL') t.status = 'passed';
    else if (t.attempts <= flow.max_revisions) t.status = 'revise';
    else escalate.push(t.id);
  }
  const record = s.phases[def.id];
  record.verdict = worst;
  record.findings = findings;
  outcome.verdict_parsed = worst;
  outcome.findings = findings;
  if (worst === 'FAIL') outcome.next_action_hint = 'revision_required';
  if (escalate.length) {
    s.escalation = {
      phase: def.id,
      reason: `Task ${escalate.join(', ')} failed code review after ${flow.max_revisions + 1} implementation run(s).`,
      task_ids: escalate,
    };
    outcome.warning = `revision limit reached: a person decides at ${def.id}-retry-limit`;
    return;
  }
  continueImplementation(s, flow, now);
}

/** Every output must exist, hold something, and have been (re)written for this action. */
function validateOutputs(
  s: PipelineState,
  phase: string,
  outputs: string[],
  facts: Record<string, ArtifactFact>,
): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const name of outputs) {
    const fact = facts[name];
    const where = `${s.workspace}/${name}`;
    if (!fact || fact.text === null)
      throw validationError(
        `${phase} must write ${where}, which does not exist; write the agent's output there, then report again`,
        { artifact: where },
      );
    if (fact.text.trim() === '')
      throw validationError(`${where} is empty; write the agent's output there, then report again`, {
        artifact: where,
      });
    if (!fact.changed)
      throw validationError(
        `${where} was not rewritten since this action was handed out; write this run's output there, then report again`,
        { artifact: where },
      );
    texts[name] = fact.text;
  }
  return texts;
}

function requireTasks(s: PipelineState, text: string): ReturnType<typeof parseTasks>['tasks'] {
  const parsed = parseTasks(text);
  if (parsed.problems.length)
    throw validationError(`${s.workspace}/tasks.md cannot be used: ${parsed.problems.join('; ')}`, {
      artifact: `${s.workspace}/tasks.md`,
    });
  return parsed.tasks;
}

function noVerdict(s: PipelineState, file: string, allowed: string, foreign: Verdict | null): LedgerError {
  const got = foreign ? ` (it says ${foreign}, which belongs to the other review table)` : '';
  return validationError(
    `${s.workspace}/${file} has no verdict${got}: end it with a line "## Verdict: ${allowed}", then report again`,
    { artifact: `${s.workspace}/${file}` },
  );
}

function startPhase(s: PipelineState, phase: string, now: string): void {
  const record = (s.phases[phase] ??= emptyPhase());
  if (record.status !== 'skipped') record.status = 'in_progress';
  record.started_at ??= now;
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
