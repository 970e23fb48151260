import type { TaskDetailModel } from '../../src/shared/protocol';
import { button, h, time } from '../dom';
import type { Ui } from './taskDetail';

/**
 * What stops the task or waits for a person, said first and acted on here: a hold with Resume,
 * the runner's reason for not starting it, and a review request with Approve / Dismiss (an
 * optional note). The same services as `agent-ledger task resume` and the Board's review.
 */
export function attention(m: TaskDetailModel, ui: Ui): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (m.hold) {
    out.push(
      h(
        'div',
        { class: 'callout warn attention', 'data-testid': 'held' },
        h('span', null, `Held — stopped by ${m.hold.by} at ${time(m.hold.at)}. No runner launches it until resumed.`),
        button('Resume', () => ui.post({ type: 'resume' }), 'Let the runner launch this task’s agent again'),
      ),
    );
  }
  if (m.waiting) {
    out.push(
      h(
        'p',
        {
          class: 'callout attention',
          'data-testid': 'waiting',
          title: `${m.waiting.reason} since ${time(m.waiting.since)}`,
        },
        `Waiting: ${m.waiting.detail}`,
      ),
    );
  }
  if (m.review) {
    const asked = [
      m.review.manualReview
        ? `Manual review needed${m.review.manualReview.reason ? `: ${m.review.manualReview.reason}` : ''}`
        : null,
      m.review.issue ? `Review requested: ${m.review.issue}` : null,
    ].filter((t): t is string => t !== null);
    const answer = (verdict: 'approved' | 'dismissed') => (): void => {
      const note = ui.note.value.trim();
      ui.note.value = '';
      ui.post({ type: 'review', verdict, ...(note ? { note } : {}) });
    };
    out.push(
      h(
        'div',
        { class: 'callout warn attention review', 'data-testid': 'review' },
        ...asked.map((t) => h('p', null, t)),
        ui.note,
        h(
          'div',
          { class: 'actions' },
          button('Approve', answer('approved'), 'You checked the work and it stands (recorded as you)'),
          button('Dismiss', answer('dismissed'), 'The request needs nothing (recorded as you)'),
        ),
      ),
    );
  }
  return out;
}

/** The review's note box, made once so a live update does not wipe what the person typed. */
export function noteInput(): HTMLTextAreaElement {
  return h('textarea', {
    rows: 2,
    'aria-label': 'Review note (optional)',
    placeholder: 'Note (optional)',
    maxlength: 5000,
    'data-testid': 'review-note',
  });
}
