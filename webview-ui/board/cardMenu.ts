import type { BoardCardItem, BoardModel } from '../../src/shared/protocol';
import { h } from '../dom';

export interface CardMenuActions {
  open(): void;
  assign(agent: string): void;
  cancel(): void;
}

const closed = new Set(['done', 'failed', 'cancelled']);

/**
 * A card's menu: what dragging does (assign to an agent, cancel) and Open, for a mouse
 * (right-click) and a keyboard (Shift+F10 or the context-menu key on a focused card; arrows,
 * Home/End, Enter, Escape). Drawn by the page, so every host (VS Code, the browser) has it.
 */
export function openCardMenu(
  root: HTMLElement,
  card: BoardCardItem,
  agents: BoardModel['agents'],
  at: { x: number; y: number },
  from: HTMLElement,
  actions: CardMenuActions,
): void {
  root.querySelector('.card-menu')?.remove();
  const items: [string, () => void][] = [[card.kind === 'task' ? 'Open' : 'Open pipeline', actions.open]];
  if (card.taskId !== null && !closed.has(card.status)) {
    for (const a of agents)
      if (a.name !== card.agent) items.push([`Assign to ${a.name}`, () => actions.assign(a.name)]);
    items.push(['Cancel task', actions.cancel]);
  }
  const buttons = items.map(([label, run]) => {
    const b = h('button', { type: 'button', role: 'menuitem', tabindex: '-1' }, label);
    b.addEventListener('click', (e) => {
      e.stopPropagation();
      close(false);
      run();
    });
    return b;
  });
  const menu = h(
    'div',
    { class: 'card-menu', role: 'menu', 'aria-label': `${card.id}: actions`, 'data-testid': 'card-menu' },
    ...buttons,
  );
  root.append(menu);
  // Inside the page: flipped left or up where it would overflow.
  const r = menu.getBoundingClientRect();
  menu.style.left = `${Math.max(0, Math.min(at.x, window.innerWidth - r.width - 4))}px`;
  menu.style.top = `${Math.max(0, Math.min(at.y, window.innerHeight - r.height - 4))}px`;
  let index = 0;
  const focus = (i: number): void => {
    index = (i + buttons.length) % buttons.length;
    buttons[index].focus();
  };
  focus(0);

  const outside = (e: MouseEvent): void => {
    if (!menu.contains(e.target as Node)) close(false);
  };
  function close(refocus: boolean): void {
    menu.remove();
    document.removeEventListener('mousedown', outside, true);
    window.removeEventListener('blur', onBlur);
    if (refocus && from.isConnected) from.focus();
  }
  const onBlur = (): void => close(false);
  document.addEventListener('mousedown', outside, true);
  window.addEventListener('blur', onBlur);
  menu.addEventListener('keydown', (e) => {
    const moves: Record<string, () => void> = {
      ArrowDown: () => focus(index + 1),
      ArrowUp: () => focus(index - 1),
      Home: () => focus(0),
      End: () => focus(buttons.length - 1),
      Escape: () => close(true),
      Tab: () => close(true),
    };
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    e.stopPropagation();
    move();
  });
}
