import type { BoardCardItem, BoardColumnId } from '../../src/shared/protocol';
import { h } from '../dom';
import { cardReason, cardLabel } from './cardText';

/** The board's columns, in order, with what a person reads: "needs a person" first, what the person came for. */
export const columns: { id: BoardColumnId; title: string; hint: string }[] = [
  { id: 'needs_person', title: 'Needs a person', hint: 'checkpoints, gates, reviews' },
  { id: 'open', title: 'Open', hint: 'waiting for other tasks' },
  { id: 'ready', title: 'Ready', hint: 'can start now' },
  { id: 'in_progress', title: 'In progress', hint: '' },
  { id: 'done', title: 'Done', hint: '' },
  { id: 'failed', title: 'Failed / cancelled', hint: '' },
];

/**
 * Every card of a column has one height (px), so the list renders only the rows in view: the card
 * (media/webview.css: a two-line title, a meta row, a line) + a 6 px gap. "Needs a person" cards
 * have a row more for their buttons, which then never share a row with text on a narrow column.
 */
export const CARD_HEIGHT = 96; // .card: 90 px
export const ACTION_CARD_HEIGHT = 120; // .card.with-actions: 114 px
const rowHeight = (column: BoardColumnId): number => (column === 'needs_person' ? ACTION_CARD_HEIGHT : CARD_HEIGHT);
/** Rows rendered above and below the visible ones. */
const OVERSCAN = 4;

export interface CardHandlers {
  open(card: BoardCardItem): void;
  /** A person answered the card's review requests (task cards in "needs a person"). */
  review(card: BoardCardItem, verdict: 'approved' | 'dismissed'): void;
  /** The card's menu (right-click, Shift+F10, the context-menu key): assign, cancel, open. */
  menu(card: BoardCardItem, at: { x: number; y: number }, from: HTMLElement): void;
  /** Fold or unfold the column. */
  toggle(column: BoardColumnId): void;
  dragStart(card: BoardCardItem): void;
  dragEnd(): void;
}

/**
 * One column's list, virtualised: a spacer as tall as every card, and absolutely placed cards
 * only for the rows in view. At 2,000 tasks the DOM holds a few dozen cards, whatever the count.
 */
export class ColumnList {
  readonly el: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly count: HTMLElement;
  private cards: BoardCardItem[] = [];
  private drawn = '';
  private readonly rowHeight: number;
  private readonly foldButton: HTMLElement;

  constructor(
    readonly id: BoardColumnId,
    title: string,
    hint: string,
    private readonly handlers: CardHandlers,
  ) {
    this.rowHeight = rowHeight(id);
    this.count = h('span', { class: 'count', 'data-testid': 'column-count' }, '0');
    this.spacer = h('div', { class: 'spacer' });
    const body = h('div', { class: 'column-body' }, this.spacer);
    body.addEventListener('scroll', () => this.draw(), { passive: true });
    this.foldButton = h('button', {
      type: 'button',
      class: 'fold',
      'aria-expanded': 'true',
      'aria-label': `Fold ${title}`,
      title: `Fold ${title}`,
      'data-testid': 'fold',
    });
    this.foldButton.addEventListener('click', () => handlers.toggle(id));
    this.el = h(
      'section',
      { class: `column column-${id}`, 'data-column': id },
      h('header', { title: hint || undefined }, this.foldButton, h('span', { class: 'name' }, title), this.count),
      body,
    );
  }

  /** Folded: a strip with the column's name and count; its cards are not drawn. */
  fold(folded: boolean): void {
    this.el.classList.toggle('collapsed', folded);
    this.foldButton.setAttribute('aria-expanded', String(!folded));
    this.foldButton.textContent = folded ? '▸' : '▾';
    const name = this.el.querySelector('.name')?.textContent ?? '';
    this.foldButton.title = `${folded ? 'Unfold' : 'Fold'} ${name}`;
    this.foldButton.setAttribute('aria-label', this.foldButton.title);
    if (!folded) {
      this.drawn = '';
      this.draw();
    }
  }

  /** How many cards are in the DOM now. */
  get rendered(): number {
    return this.spacer.childElementCount;
  }

  set(cards: BoardCardItem[]): void {
    this.cards = cards;
    this.count.textContent = String(cards.length);
    this.spacer.style.height = `${cards.length * this.rowHeight}px`;
    this.drawn = '';
    this.draw();
  }

  draw(): void {
    const body = this.spacer.parentElement!;
    const height = body.clientHeight || 800;
    const first = Math.max(0, Math.floor(body.scrollTop / this.rowHeight) - OVERSCAN);
    const last = Math.min(this.cards.length, Math.ceil((body.scrollTop + height) / this.rowHeight) + OVERSCAN);
    const key = `${first}:${last}`;
    if (key === this.drawn) return;
    this.drawn = key;
    const els: HTMLElement[] = [];
    for (let i = first; i < last; i++) els.push(this.card(this.cards[i], i));
    this.spacer.replaceChildren(...els);
  }

  private card(card: BoardCardItem, index: number): HTMLElement {
    const who = card.agent ? `${card.agent}${card.client ? ` (${card.client})` : ''}` : '';
    const cost = card.cost === null ? '' : `$${card.cost.toFixed(2)}`;
    const overlap = overlapText(card);
    const handoff = card.handoffs.length
      ? `handoff ${card.handoffs.map((x) => `${x.from} → ${x.to ?? 'any agent'}`).join(', ')}`
      : '';
    const line =
      cardReason(card) ?? (card.blockedBy.length ? `waits for ${card.blockedBy.join(', ')}` : card.lastMilestone) ?? '';
    const label = cardLabel(card);
    const status =
      card.status === 'cancelled' || (card.status === 'done' && card.result && card.result !== 'success')
        ? card.result && card.status === 'done'
          ? card.result.replace('_', ' ')
          : card.status
        : '';
    const reviewable = card.kind === 'task' && card.column === 'needs_person' && card.taskId !== null;
    const act = (label: string, verdict: 'approved' | 'dismissed', tip: string): HTMLElement => {
      const b = h(
        'button',
        { type: 'button', class: 'card-action', title: tip, 'data-testid': `review-${verdict}` },
        label,
      );
      b.addEventListener('click', (e) => {
        e.stopPropagation();
        this.handlers.review(card, verdict);
      });
      return b;
    };
    const el = h(
      'article',
      {
        class: `card kind-${card.kind} status-${card.status}${overlap ? ' overlapping' : ''}${card.column === 'needs_person' ? ' with-actions' : ''}`,
        draggable: card.taskId !== null ? 'true' : undefined,
        tabindex: '0',
        role: 'button',
        'data-card': card.id,
        'aria-haspopup': card.taskId !== null ? 'menu' : undefined,
        title: [card.title, card.workflow, line, handoff, overlapDetail(card)].filter(Boolean).join('\n'),
      },
      h('div', { class: 'card-title' }, card.title),
      h(
        'div',
        { class: 'card-meta' },
        h('span', { class: 'key' }, label),
        status ? h('span', { class: 'card-status' }, status) : null,
        h('span', { class: 'agent', 'data-testid': 'agent' }, who),
        h('span', { class: 'cost', 'data-testid': 'cost' }, cost),
      ),
      // The third row: the overlap warning first (it is about running work now), else the handoff and why it waits or its last milestone.
      h(
        'div',
        { class: 'card-line' },
        overlap ? h('span', { class: 'overlap', 'data-testid': 'overlap' }, overlap) : null,
        !overlap && handoff ? h('span', { class: 'handoff', 'data-testid': 'handoff' }, handoff) : null,
        !overlap && line ? h('span', { class: 'muted' }, line) : null,
      ),
      // A row of its own: the buttons share the card's width and are never cut by the text beside them.
      reviewable
        ? h(
            'div',
            { class: 'card-actions' },
            act('Approve', 'approved', 'I reviewed it: the work stands (the card leaves "needs a person")'),
            act('Dismiss', 'dismissed', 'No review needed (the card leaves "needs a person")'),
          )
        : null,
    );
    // Through the CSSOM: the webview's CSP refuses inline style attributes.
    el.style.top = `${index * this.rowHeight}px`;
    el.addEventListener('click', () => this.handlers.open(card));
    el.addEventListener('contextmenu', (e) => {
      // Prevented: VS Code's webview then shows no Cut/Copy/Paste menu of its own.
      e.preventDefault();
      this.handlers.menu(card, { x: e.clientX, y: e.clientY }, el);
    });
    el.addEventListener('keydown', (e) => {
      if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
        e.preventDefault();
        const r = el.getBoundingClientRect();
        this.handlers.menu(card, { x: r.left + 12, y: r.top + 24 }, el);
        return;
      }
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      this.handlers.open(card);
    });
    el.addEventListener('dragstart', (e) => {
      e.dataTransfer?.setData('text/plain', card.id);
      if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
      this.handlers.dragStart(card);
    });
    el.addEventListener('dragend', () => this.handlers.dragEnd());
    return el;
  }
}

/** The card's overlap warning, one line: `⚠ overlaps task-7 on src/auth/**, src/auth/login.ts`. */
function overlapText(card: BoardCardItem): string {
  if (!card.overlaps.length) return '';
  return `⚠ overlaps ${card.overlaps.map((o) => `${o.task} on ${o.paths.join(', ')}`).join('; ')}`;
}

/** The same in full for the tooltip: the other task's title and agent too. */
function overlapDetail(card: BoardCardItem): string {
  return card.overlaps
    .map(
      (o) =>
        `May touch the same files as ${o.task}${o.title ? ` "${o.title}"` : ''}${o.agent ? ` (${o.agent})` : ''}: ${o.paths.join(', ')}`,
    )
    .join('\n');
}
