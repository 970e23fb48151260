import type {
  PipelineModel,
  PipelinePhaseItem,
  PipelineTaskItem,
  PipelineWebviewMessage,
} from '../../src/shared/protocol';
import { formatDuration, formatTokens, plural } from '../../src/core/format';
import { h, link, section } from '../dom';
import { artifactLink } from './decision';

type Post = (message: PipelineWebviewMessage) => void;

const statusWords: Record<PipelinePhaseItem['status'], string> = {
  pending: 'pending',
  in_progress: 'running',
  completed: 'completed',
  skipped: 'skipped',
};
const decisionWords: Record<string, string> = {
  approve: 'approved',
  reject: 'rejected',
  done: 'done',
  skip: 'skipped',
  abandon: 'abandoned',
};

/** The phases in flow order: state, metrics, verdict, revision round, artifact; tasks under the implementation. */
export function timelineSection(m: PipelineModel, post: Post): HTMLElement {
  return section('Phases', h('ol', { class: 'phases' }, ...m.phases.map((p) => phaseRow(m, p, post))));
}

function phaseRow(m: PipelineModel, p: PipelinePhaseItem, post: Post): HTMLElement {
  const state = p.waiting ? 'waits for your decision' : statusWords[p.status];
  const facts = [
    p.durationMs > 0 ? formatDuration(p.durationMs / 1000) : null,
    p.tokens > 0 ? formatTokens(p.tokens) : null,
    p.model,
    p.runs > 1 ? plural(p.runs, 'run') : null,
    p.revision > 0 ? `revision ${p.revision}` : null,
    p.decision && !p.waiting
      ? `${decisionWords[p.decision.decision] ?? p.decision.decision} by ${p.decision.by}`
      : null,
    p.findings.length ? plural(p.findings.length, 'finding') : null,
  ].filter((f): f is string => f !== null);
  const classes = ['phase', `status-${p.status}`, p.waiting ? 'waiting' : '', p.current ? 'current' : '']
    .filter(Boolean)
    .join(' ');
  const tasks =
    p.kind === 'implementation' && m.tasks.length
      ? h('ul', { class: 'tasks' }, ...m.tasks.map((t) => taskRow(t, post)))
      : null;
  return h(
    'li',
    { class: classes, 'data-phase': p.id, 'aria-current': p.current ? 'step' : undefined },
    h(
      'div',
      { class: 'phase-head' },
      h('span', { class: 'phase-label' }, p.label),
      h('span', { class: `pill phase-${p.waiting ? 'waiting' : p.status}`, 'data-testid': 'phase-state' }, state),
      p.verdict ? h('span', { class: `verdict v-${p.verdict}` }, p.verdict) : null,
    ),
    facts.length ? h('div', { class: 'muted phase-facts' }, facts.join(' · ')) : null,
    p.artifact?.exists ? h('div', { class: 'phase-artifact' }, artifactLink(p.artifact, post)) : null,
    tasks,
  );
}

function taskRow(t: PipelineTaskItem, post: Post): HTMLElement {
  const facts = [
    t.mode,
    t.attempts > 1 ? plural(t.attempts, 'attempt') : null,
    t.filesChanged !== null ? `${plural(t.filesChanged, 'file')} changed` : null,
  ].filter((f): f is string => f !== null);
  return h(
    'li',
    { class: `task status-${t.status}${t.waiting ? ' waiting' : ''}`, 'data-task': t.id },
    h('span', { class: 'phase-label' }, `Task ${t.id}: ${t.title}`),
    ' ',
    h('span', { class: `pill task-${t.waiting ? 'waiting' : t.status}` }, t.waiting ? 'waits for you' : t.status),
    t.verdict ? [' ', h('span', { class: `verdict v-${t.verdict}` }, t.verdict)] : null,
    h('span', { class: 'muted' }, ` ${facts.join(' · ')}`),
    t.ledgerTaskId
      ? [' · ', link(t.ledgerTaskId, () => post({ type: 'openTask', ledgerTaskId: t.ledgerTaskId! }))]
      : null,
  );
}
