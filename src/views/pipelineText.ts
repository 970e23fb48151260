import type { PhaseView, PipelineDetail, PipelineSummary, TaskView } from '../core/pipelines/pipelineQueries';
import type { DecisionRecord } from '../core/pipelines/engine/pipelineState';
import { formatDuration, formatTokens, plural } from '../core/format';

/**
 * The words the Pipelines view, its notifications and the pipeline webview's model use, as plain
 * functions (no `vscode`): the in-host unit tests read them with literal inputs.
 */

/** "Checkpoint A: Human Reviews Design" ("Checkpoint A" when `short`), "Task 2 (human)", "Design Review: revision limit". */
export function checkpointTitle(name: string, labelOf: (phaseId: string) => string | undefined, short = false): string {
  const limit = /^(.+)-retry-limit$/.exec(name);
  if (limit) return `${labelOf(limit[1]) ?? limit[1]}: revision limit`;
  const checkpoint = /^checkpoint-(\w+)$/.exec(name);
  if (checkpoint)
    return `Checkpoint ${checkpoint[1].toUpperCase()}${labelOf(name) && !short ? `: ${labelOf(name)}` : ''}`;
  const task = /^task-(.+)$/.exec(name);
  if (task) return `Task ${task[1]} (human)`;
  return labelOf(name) ?? name;
}

/** `approve` → "approved"; what a decision did, in a past-tense word. */
export function decisionWord(decision: string): string {
  const words: Record<string, string> = {
    approve: 'approved',
    reject: 'rejected',
    done: 'done',
    skip: 'skipped',
    abandon: 'abandoned',
  };
  return words[decision] ?? decision;
}

/** `2m 05s · 12.3k tokens · opus` (the parts that are known). */
export function metricsText(m: { durationMs: number; tokens: number; model: string | null }): string[] {
  const parts: string[] = [];
  if (m.durationMs > 0) parts.push(formatDuration(m.durationMs / 1000));
  if (m.tokens > 0) parts.push(formatTokens(m.tokens));
  if (m.model) parts.push(m.model);
  return parts;
}

/** `waits for you: Checkpoint A · M · 6.0k tokens · 8s`, `at Design · L · …`, `completed · S · …`. */
export function pipelineDescription(s: PipelineSummary, labelOf: (phaseId: string) => string | undefined): string {
  const parts: string[] = [];
  if (s.status === 'awaiting_human' && s.waiting)
    parts.push(`waits for you: ${checkpointTitle(s.waiting.name, labelOf, true)}`);
  else if (s.status === 'running') parts.push(`at ${labelOf(s.currentPhase) ?? s.currentPhase}`);
  else parts.push(s.status);
  parts.push(s.effort);
  if (s.totalTokens > 0) parts.push(formatTokens(s.totalTokens));
  if (s.totalDurationMs > 0) parts.push(formatDuration(s.totalDurationMs / 1000));
  return parts.join(' · ');
}

/**
 * A phase's row: the waiting one says so first; a finished one its metrics, verdict, findings
 * and revision round; a checkpoint who decided it.
 */
export function phaseDescription(
  p: PhaseView,
  waiting: 'checkpoint' | 'human_gate' | null,
  decision: DecisionRecord | undefined,
): string {
  const parts: string[] = [];
  if (waiting) parts.push(waiting === 'human_gate' ? 'waits for you (human task)' : 'waits for your decision');
  else if (p.status === 'skipped') return 'skipped';
  else if (p.status === 'in_progress') parts.push('running');
  else if (p.status === 'pending') return p.revision > 0 ? `revision ${p.revision}` : '';
  if (p.kind === 'checkpoint' && decision && !waiting)
    parts.push(`${decisionWord(decision.decision)} by ${decision.decided_by}`);
  parts.push(...metricsText(p));
  if (p.verdict) parts.push(p.verdict);
  if (p.findings.length) parts.push(plural(p.findings.length, 'finding'));
  if (p.revision > 0) parts.push(`revision ${p.revision}`);
  return parts.join(' · ');
}

/** `passed · PASS · 2 attempts · task-12 · 3 files`, or `waits for you (human task)`. */
export function pipelineTaskDescription(t: TaskView, waiting: boolean): string {
  const parts: string[] = [waiting ? 'waits for you (human task)' : t.status];
  if (t.verdict) parts.push(t.verdict);
  if (t.attempts > 1) parts.push(plural(t.attempts, 'attempt'));
  if (t.ledgerTaskId) parts.push(t.ledgerTaskId);
  if (t.filesChanged !== null) parts.push(plural(t.filesChanged, 'file'));
  return parts.join(' · ');
}

/** The last decision taken on a checkpoint (a phase id or gate name). */
export function lastDecision(decisions: readonly DecisionRecord[], name: string): DecisionRecord | undefined {
  for (let i = decisions.length - 1; i >= 0; i--) if (decisions[i].name === name) return decisions[i];
  return undefined;
}

/** "Checkpoint A approved — the pipeline continues at Task Decomposition." */
export function decisionSummary(result: { decision: DecisionRecord; pipeline: PipelineDetail }): string {
  const { decision: d, pipeline: p } = result;
  const labelOf = (id: string): string | undefined => p.phases.find((x) => x.id === id)?.label;
  const title = checkpointTitle(d.name, labelOf, true);
  const where =
    p.status === 'completed'
      ? 'the pipeline is complete'
      : p.status === 'abandoned'
        ? 'the pipeline is abandoned'
        : `the pipeline ${d.decision === 'reject' ? 'goes back to' : 'continues at'} ${labelOf(p.currentPhase) ?? p.currentPhase}`;
  return `${title} ${decisionWord(d.decision)} — ${where}.`;
}
