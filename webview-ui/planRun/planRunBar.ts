import type { PlanNodeState, PlanRunLeafView, PlanRunMessage, PlanRunView } from '../../src/shared/protocol';
import { formatUsd } from '../../src/core/format';
import { button, h, time } from '../dom';

/** A leaf's state in a person's words. */
export const STATE_TEXT: Record<PlanNodeState, string> = {
  waiting: 'waiting',
  queued: 'queued',
  running: 'running',
  'needs-person': 'waits for you',
  done: 'done',
  failed: 'failed',
  skipped: 'skipped',
  cancelled: 'cancelled',
};

/** `running exec-4 · coder · $0.02`: a leaf's state, the run of its agent, its agent, its cost so far. */
export function leafText(l: PlanRunLeafView): string {
  const parts = [l.state === 'running' && l.executionId ? `running ${l.executionId}` : STATE_TEXT[l.state]];
  if (l.agent) parts.push(l.agent);
  if (l.costUsd !== null) parts.push(formatUsd(l.costUsd));
  return parts.join(' · ');
}

/**
 * A plan run as a bar: its id, state, progress, who started it and when, its cost, Pause / Resume /
 * Cancel as it allows, and Approve / Refuse on each gate that waits for a person. The Plan graph
 * shows it above the drawing, the Board one per running plan.
 */
export function planRunBar(
  run: PlanRunView,
  post: (message: PlanRunMessage) => void,
  options: { leaves: boolean; open?: () => void },
): HTMLElement {
  const p = run.progress;
  const counts = [`${p.done}/${p.leaves} done`];
  if (p.running) counts.push(`${p.running} running`);
  if (p.failed) counts.push(`${p.failed} failed`);
  if (p.skipped) counts.push(`${p.skipped} skipped or cancelled`);
  const actions = run.actions.map((action) => {
    const b = button(action === 'pause' ? 'Pause' : action === 'resume' ? 'Resume' : 'Cancel', () => {
      if (action === 'cancel') b.disabled = true;
      post({ type: 'planRun', runId: run.runId, action });
    });
    b.dataset.testid = `plan-${action}`;
    b.title =
      action === 'pause'
        ? 'Nothing new starts; running agents finish'
        : action === 'cancel'
          ? "Nothing more starts and this run's running agents are stopped"
          : 'Start what is ready again';
    return b;
  });
  const gates = run.leaves
    .filter((l) => l.kind === 'gate' && l.state === 'needs-person')
    .map((g) => {
      const approve = button('Approve', () =>
        post({ type: 'planGate', runId: run.runId, nodeId: g.id, approve: true }),
      );
      approve.dataset.testid = 'plan-approve';
      const refuse = button('Refuse', () => post({ type: 'planGate', runId: run.runId, nodeId: g.id, approve: false }));
      refuse.dataset.testid = 'plan-refuse';
      return h(
        'span',
        { class: 'plan-gate', 'data-gate': g.id },
        h('span', null, `${g.graphNode ?? g.id}: ${g.reason ?? 'waits for a person'}`),
        approve,
        refuse,
      );
    });
  const id = options.open
    ? h('a', { href: '#', onclick: (e: Event) => (e.preventDefault(), options.open!()) }, run.runId)
    : h('strong', null, run.runId);
  return h(
    'div',
    {
      class: `plan-run plan-run-${run.status}`,
      'data-testid': 'plan-run',
      'data-run': run.runId,
      'data-status': run.status,
    },
    h(
      'div',
      { class: 'plan-run-head' },
      id,
      h('span', { class: `pill plan-status-${run.status}`, 'data-testid': 'plan-run-status' }, run.status),
      h('span', { 'data-testid': 'plan-run-progress' }, counts.join(', ')),
      h('progress', { max: 100, value: p.percent, 'aria-label': `${p.percent}% settled` }),
      h(
        'span',
        { class: 'muted' },
        `${run.startedBy ? `started by ${run.startedBy} ` : ''}${time(run.since)}${run.costUsd ? ` · ${formatUsd(run.costUsd)}` : ''}`,
      ),
      ...actions,
      ...gates,
    ),
    run.reason && run.status !== 'running' ? h('div', { class: 'muted' }, run.reason) : null,
    options.leaves
      ? h(
          'ul',
          { class: 'plan-leaves', 'data-testid': 'plan-leaves' },
          ...run.leaves.map((l) =>
            h(
              'li',
              { class: `plan-${l.state}`, 'data-leaf': l.taskKey ?? l.id, 'data-state': l.state },
              h('span', null, l.taskKey ?? l.id),
              h('span', { class: 'muted' }, leafText(l)),
            ),
          ),
        )
      : null,
  );
}
