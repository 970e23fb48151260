import type { MemoryHostMessage, MemoryItem, MemoryModel, MemoryWebviewMessage } from '../../src/shared/protocol';
import { button, fill, h, link, section } from '../dom';
import type { Host } from '../hosts/host';

export type MemoryHost = Host<MemoryWebviewMessage, MemoryHostMessage, unknown>;

/** The Memory Bank: entries by category (`.agent-ledger/memory/<category>/<id>.md`); one opens as text. */
export function mountMemory(root: HTMLElement, host: MemoryHost, initialEntry?: string): void {
  let model: MemoryModel | undefined;
  let open: { key: string; content: string } | undefined;
  const render = (): void => {
    if (!model) return;
    const categories = [...new Set(model.entries.map((e) => e.category))].sort();
    fill(
      root,
      h(
        'header',
        { class: 'board-header' },
        h('h1', null, 'Memory Bank'),
        h('span', { class: 'muted' }, `${model.entries.length} entries · every agent is given the active ones`),
        button('Refresh', () => host.post({ type: 'refresh' })),
      ),
      open
        ? entryView(
            model.entries.find((e) => e.key === open!.key),
            open.content,
            () => ((open = undefined), render()),
          )
        : null,
      model.entries.length === 0
        ? h('p', { class: 'muted' }, 'No entries yet: `agent-ledger memory add` or an agent’s memory_add writes one.')
        : null,
      ...categories.map((c) =>
        section(
          c,
          h(
            'ul',
            { class: 'plain' },
            ...model!.entries
              .filter((e) => e.category === c)
              .map((e) =>
                h(
                  'li',
                  { 'data-entry': e.key },
                  h('span', { class: `pill memory-${e.status}` }, e.status),
                  ' ',
                  link(e.title, () => host.post({ type: 'openEntry', key: e.key })),
                  e.summary ? h('span', { class: 'muted' }, ` — ${e.summary}`) : null,
                ),
              ),
          ),
        ),
      ),
    );
  };
  host.listen((message) => {
    switch (message.type) {
      case 'memory':
        model = message.model;
        render();
        if (initialEntry) {
          host.post({ type: 'openEntry', key: initialEntry });
          initialEntry = undefined;
        }
        return;
      case 'entry':
        open = { key: message.key, content: message.content };
        render();
        return;
      case 'error':
        root.replaceChildren(h('p', { class: 'error' }, message.message));
        return;
    }
  });
}

function entryView(e: MemoryItem | undefined, content: string, close: () => void): HTMLElement {
  return h(
    'section',
    { class: 'document', 'data-testid': 'memory-entry' },
    h('h2', null, e?.title ?? 'Entry', ' ', button('Close', close)),
    e ? h('p', { class: 'muted' }, h('code', null, e.file)) : null,
    h('pre', { class: 'present' }, content),
  );
}
