import type { PipelineArtifact, PipelineWaiting, PipelineWebviewMessage } from '../../src/shared/protocol';
import { h, link, time } from '../dom';

type Post = (message: PipelineWebviewMessage) => void;

interface Choice {
  decision: string;
  label: string;
  title: string;
  primary?: boolean;
  /** The comment is the point of this answer (a request for changes). */
  needsComment?: boolean;
}

/**
 * The answers a person has, in the engine's options: a checkpoint is approved or sent back with
 * a comment (rejecting one always sends it back to revise, so it is a request for changes and
 * says what to change); a revision limit is accepted as it is or abandoned; a human gate is done,
 * skipped or abandoned.
 */
export function choices(w: PipelineWaiting): Choice[] {
  if (w.kind === 'human_gate') {
    return [
      { decision: 'done', label: 'Done', title: 'You did this task: the pipeline continues', primary: true },
      { decision: 'skip', label: 'Skip', title: 'Leave the task undone and continue' },
      { decision: 'abandon', label: 'Abandon', title: 'Stop the whole pipeline' },
    ];
  }
  if (w.retryLimit) {
    return [
      {
        decision: 'approve',
        label: 'Approve as it is',
        title: 'Accept the work despite the open findings and continue',
        primary: true,
      },
      { decision: 'reject', label: 'Reject', title: 'Abandon the pipeline' },
    ];
  }
  return [
    { decision: 'approve', label: 'Approve', title: 'Continue to the next phase', primary: true },
    {
      decision: 'reject',
      label: 'Request changes',
      title: `Reject: the pipeline goes back to ${w.rejectTo ?? 'revise'}, and the agent reads your comment`,
      needsComment: true,
    },
  ];
}

/**
 * The decision box of the checkpoint or gate that waits. Built once per wait and kept across
 * live re-renders, so a comment being typed survives the agent's writes.
 */
export function decisionBox(w: PipelineWaiting, post: Post): HTMLElement {
  const status = h('p', { class: 'muted', role: 'status', 'data-testid': 'decision-status' });
  const comment = h('textarea', {
    id: 'decision-comment',
    rows: 3,
    'aria-label': 'Comment',
    placeholder:
      w.kind === 'checkpoint' && !w.retryLimit
        ? `What should change? (needed to request changes; optional to approve)`
        : 'A comment for the record (optional)',
    // Typing answers the "say what should change" prompt: it goes.
    oninput: () => {
      if (status.className !== 'error') return;
      status.textContent = '';
      status.className = 'muted';
    },
  });
  const buttons: HTMLButtonElement[] = [];
  const decide = (c: Choice): void => {
    const text = comment.value.trim();
    if (c.needsComment && text === '') {
      status.textContent = 'Say what should change: the agent revises with your comment.';
      status.className = 'error';
      comment.focus();
      return;
    }
    for (const b of buttons) b.disabled = true;
    status.className = 'muted';
    status.textContent = 'Recording your decision…';
    post({ type: 'decide', decision: c.decision, comment: text, checkpoint: w.name });
  };
  for (const c of choices(w)) {
    buttons.push(
      h(
        'button',
        {
          type: 'button',
          class: c.primary ? 'primary' : undefined,
          title: c.title,
          'data-decision': c.decision,
          onclick: () => decide(c),
        },
        c.label,
      ),
    );
  }
  const asked = w.requestedAt
    ? `The agent asked ${time(w.requestedAt)} and waits: it cannot pass this ${w.kind === 'human_gate' ? 'gate' : 'checkpoint'} by itself.`
    : 'The engine is here; the agent has not asked yet. Your decision counts when it does.';
  return h(
    'section',
    { class: 'decision', 'data-testid': 'decision', 'aria-label': `${w.label} waits for your decision` },
    h('h2', null, `${w.label} — waits for your decision`),
    h('p', { class: 'muted' }, asked),
    w.present.length
      ? h('p', { class: 'read' }, 'Read: ', ...w.present.flatMap((a, i) => [i ? ' · ' : '', artifactLink(a, post)]))
      : null,
    h('details', null, h('summary', null, 'What the engine presents'), h('pre', { class: 'present' }, w.presentToUser)),
    comment,
    h('div', { class: 'actions' }, ...buttons),
    status,
  );
}

/** Re-enables the box after a refused decision (a stale checkpoint), with the engine's reason. */
export function showRefusal(box: HTMLElement, text: string): void {
  for (const b of Array.from(box.querySelectorAll('button'))) b.disabled = false;
  const status = box.querySelector('[data-testid=decision-status]');
  if (status) {
    status.textContent = text;
    status.className = 'error';
  }
}

export function artifactLink(a: PipelineArtifact, post: Post): HTMLElement {
  const el = link(a.name, () => post({ type: 'openArtifact', path: a.path }));
  el.classList.add('artifact');
  el.dataset.name = a.name;
  el.title = `Open ${a.name} in the editor`;
  return el;
}
