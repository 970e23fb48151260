import type { BoardCardItem, BoardHostMessage, BoardModel, BoardWebviewMessage } from '../../src/shared/protocol';
import { button, h } from '../dom';
import type { Host } from '../hosts/host';
import { ColumnList, columns } from './columns';
import { openCardMenu } from './cardMenu';
import { planRunBar } from '../planRun/planRunBar';
import type { BoardColumnId } from '../../src/shared/protocol';

/** The host's order (core/board/boardModel.ts boardCards): most recently updated first, then by id. */
function newestFirst(a: BoardCardItem, b: BoardCardItem): number {
  return a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.id < b.id ? 1 : -1;
}

interface State {
  folder: string;
  filter: string;
  agent?: string;
  workflow?: string;
  status?: string;
  /** Columns the person folded to a strip. */
  collapsed?: BoardColumnId[];
}

export type BoardHost = Host<BoardWebviewMessage, BoardHostMessage, State>;

/** A filter's choices: every value the cards hold, sorted, after "all". */
function choices(select: HTMLSelectElement, label: string, values: (string | null)[], chosen: string): void {
  const names = [...new Set(values.filter((v): v is string => !!v))].sort((a, b) => a.localeCompare(b));
  if (chosen && !names.includes(chosen)) names.unshift(chosen);
  select.replaceChildren(
    h('option', { value: '' }, `${label}: all`),
    ...names.map((n) => h('option', { value: n, selected: n === chosen }, n)),
  );
}

/**
 * The Board: every task of the folder in six columns, live. Drag a card onto an agent to assign
 * it, or onto Cancel, or do the same from its menu (right-click, Shift+F10); click it for its
 * detail. Columns share the width and fold to a strip. Each column renders only the cards in view.
 */
export function mountBoard(root: HTMLElement, host: BoardHost): void {
  let model: BoardModel | undefined;
  let dragging: BoardCardItem | undefined;
  let painted = false;
  const saved = host.getState();
  let filter = saved?.filter ?? '';
  const picked = { agent: saved?.agent ?? '', workflow: saved?.workflow ?? '', status: saved?.status ?? '' };
  const collapsed = new Set<BoardColumnId>(saved?.collapsed ?? []);

  const lists = columns.map(
    (c) =>
      new ColumnList(c.id, c.title, c.hint, {
        open: (card) => host.post({ type: 'openCard', id: card.id }),
        review: (card, verdict) => card.taskId !== null && host.post({ type: 'review', taskId: card.taskId, verdict }),
        menu: (card, at, from) =>
          openCardMenu(root, card, model?.agents ?? [], at, from, {
            open: () => host.post({ type: 'openCard', id: card.id }),
            assign: (agent) => card.taskId !== null && host.post({ type: 'assign', taskId: card.taskId, agent }),
            cancel: () => card.taskId !== null && host.post({ type: 'cancel', taskId: card.taskId }),
          }),
        toggle: (id) => {
          if (!collapsed.delete(id)) collapsed.add(id);
          layout();
          save();
        },
        dragStart: (card) => {
          dragging = card;
          root.classList.add('dragging');
        },
        dragEnd: () => {
          dragging = undefined;
          root.classList.remove('dragging');
        },
      }),
  );
  const title = h('h1', null, 'Board');
  const total = h('span', { class: 'muted', 'data-testid': 'total' });
  const status = h('p', { class: 'acted', role: 'status', 'data-testid': 'acted' });
  const search = h('input', {
    type: 'search',
    placeholder: 'Filter by title, task, agent, workflow',
    value: filter,
    'aria-label': 'Filter cards',
  });
  search.addEventListener('input', () => {
    filter = search.value;
    save();
    show();
  });
  const selects = {
    agent: h('select', { 'aria-label': 'Filter by agent', 'data-testid': 'filter-agent' }),
    workflow: h('select', { 'aria-label': 'Filter by workflow', 'data-testid': 'filter-workflow' }),
    status: h('select', { 'aria-label': 'Filter by state', 'data-testid': 'filter-status' }),
  };
  for (const [name, select] of Object.entries(selects) as [keyof typeof picked, HTMLSelectElement][])
    select.addEventListener('change', () => {
      picked[name] = select.value;
      save();
      show();
    });
  const drawChoices = (): void => {
    if (!model) return;
    choices(
      selects.agent,
      'Agent',
      [...model.cards.map((c) => c.agent), ...model.agents.map((a) => a.name)],
      picked.agent,
    );
    choices(
      selects.workflow,
      'Workflow',
      model.cards.map((c) => c.workflow),
      picked.workflow,
    );
    choices(
      selects.status,
      'State',
      model.cards.map((c) => c.status),
      picked.status,
    );
  };
  const targets = h('div', { class: 'drop-targets', 'data-testid': 'drop-targets' });
  /** Plan runs going on, one bar each, with their buttons. */
  const plans = h('div', { class: 'plan-runs', 'data-testid': 'plan-runs' });
  const drawPlans = (): void =>
    plans.replaceChildren(
      ...(model?.plans ?? []).map((run) =>
        planRunBar(run, (m) => host.post(m), {
          leaves: true,
          open:
            run.workflowId === null ? undefined : () => host.post({ type: 'openPlan', workflowId: run.workflowId! }),
        }),
      ),
    );
  const board = h('div', { class: 'board' }, ...lists.map((l) => l.el));
  root.replaceChildren(
    h(
      'header',
      { class: 'board-header' },
      title,
      total,
      search,
      selects.agent,
      selects.workflow,
      selects.status,
      button('Refresh', () => host.post({ type: 'refresh' })),
    ),
    plans,
    targets,
    status,
    board,
  );
  window.addEventListener('resize', () => lists.forEach((l) => l.draw()));
  /** Open columns share the width (none wider than the board); a folded one is a strip. */
  const layout = (): void => {
    board.style.gridTemplateColumns = lists.map((l) => (collapsed.has(l.id) ? '30px' : 'minmax(0, 1fr)')).join(' ');
    for (const l of lists) l.fold(collapsed.has(l.id));
  };
  layout();

  const save = (): void => {
    if (model) host.setState({ folder: model.folder, filter, ...picked, collapsed: [...collapsed] });
  };

  /** A place to drop a card: an agent (assign) or Cancel. */
  const target = (label: string, attrs: Record<string, string>, onDrop: (card: BoardCardItem) => void): HTMLElement => {
    const el = h('div', { class: 'drop', ...attrs }, label);
    el.addEventListener('dragover', (e) => {
      if (!dragging) return;
      e.preventDefault();
      el.classList.add('over');
    });
    el.addEventListener('dragleave', () => el.classList.remove('over'));
    el.addEventListener('drop', (e) => {
      e.preventDefault();
      el.classList.remove('over');
      const id = e.dataTransfer?.getData('text/plain');
      const card = dragging ?? model?.cards.find((c) => c.id === id);
      if (card) onDrop(card);
    });
    return el;
  };

  const drawTargets = (): void => {
    if (!model) return;
    const agents = model.agents.map((a) =>
      target(
        a.client ? `${a.name} (${a.client})` : a.name,
        { 'data-agent': a.name },
        (card) => card.taskId !== null && host.post({ type: 'assign', taskId: card.taskId, agent: a.name }),
      ),
    );
    targets.replaceChildren(
      h('span', { class: 'muted' }, agents.length ? 'Drag a card to assign it:' : 'Drag a card here to cancel it:'),
      ...agents,
      target(
        'Cancel task',
        { class: 'drop cancel', 'data-testid': 'drop-cancel' },
        (card) => card.taskId !== null && host.post({ type: 'cancel', taskId: card.taskId }),
      ),
    );
  };

  const show = (): void => {
    if (!model) return;
    const needle = filter.trim().toLowerCase();
    const visible = model.cards.filter(
      (c) =>
        (!needle || [c.title, c.id, c.agent, c.client, c.workflow].some((v) => v?.toLowerCase().includes(needle))) &&
        (!picked.agent || c.agent === picked.agent) &&
        (!picked.workflow || c.workflow === picked.workflow) &&
        (!picked.status || c.status === picked.status),
    );
    for (const list of lists) list.set(visible.filter((c) => c.column === list.id));
    total.textContent = `${model.folderName} · ${visible.length === model.cards.length ? '' : `${visible.length} of `}${model.cards.length} cards`;
  };

  host.listen((message) => {
    switch (message.type) {
      case 'board':
        model = message.model;
        save();
        drawPlans();
        drawTargets();
        drawChoices();
        show();
        if (!painted) {
          painted = true;
          // After layout and paint of the first model: what the person waited for.
          requestAnimationFrame(() =>
            setTimeout(() => {
              const ms = performance.now();
              root.dataset.paintMs = ms.toFixed(0);
              host.post({
                type: 'painted',
                ms,
                cards: model?.cards.length ?? 0,
                rendered: lists.reduce((n, l) => n + l.rendered, 0),
              });
            }, 0),
          );
        }
        return;
      case 'boardDelta': {
        if (!model) return;
        const byId = new Map(model.cards.map((c) => [c.id, c]));
        for (const id of message.removed) byId.delete(id);
        for (const c of message.upserts) byId.set(c.id, c);
        model = {
          ...model,
          cards: [...byId.values()].sort(newestFirst),
          agents: message.agents ?? model.agents,
          plans: message.plans ?? model.plans,
        };
        if (message.agents) drawTargets();
        if (message.plans) drawPlans();
        drawChoices();
        show();
        return;
      }
      case 'acted':
        status.textContent = message.text;
        status.className = `acted ${message.ok ? 'ok' : 'warn'}`;
        return;
      case 'error':
        status.textContent = message.message;
        status.className = 'acted warn';
        return;
    }
  });
}
