import type { AgentItem, AgentsHostMessage, AgentsModel, AgentsWebviewMessage } from '../../src/shared/protocol';
import { formatCostSummary } from '../../src/core/format';
import { button, fill, h, link, section, time } from '../dom';
import type { Host } from '../hosts/host';

export type AgentsHost = Host<AgentsWebviewMessage, AgentsHostMessage, unknown>;

/** What a page of Agents keeps across live updates: the End Session forms open, what the last action said. */
interface Ui {
  host: AgentsHost;
  openTask(taskId: number): void;
  /** An open End Session form per session, made once so a live update does not wipe what the person typed. */
  ending: Map<number, HTMLElement>;
  status: HTMLElement;
  draw(): void;
}

/** Agents and their sessions: definition, scope, cost, running instances, handoffs waiting; End Session for a stale one. */
export function mountAgents(root: HTMLElement, host: AgentsHost): void {
  let model: AgentsModel | undefined;
  const ui: Ui = {
    host,
    openTask: (taskId) => host.post({ type: 'openTask', taskId }),
    ending: new Map(),
    status: h('p', { class: 'acted', role: 'status', 'data-testid': 'acted' }),
    draw: () => model && draw(root, model, ui),
  };
  host.listen((message) => {
    if (message.type === 'error') root.replaceChildren(h('p', { class: 'error' }, message.message));
    if (message.type === 'acted') {
      ui.status.textContent = message.text;
      ui.status.className = `acted ${message.ok ? 'ok' : 'warn'}`;
    }
    if (message.type !== 'agents') return;
    model = message.model;
    // A form of a session that is no longer stale (ended, here or elsewhere) has nothing to end.
    const stale = new Set(model.agents.flatMap((a) => a.sessions.filter(isStale).map((s) => s.id)));
    for (const id of ui.ending.keys()) if (!stale.has(id)) ui.ending.delete(id);
    ui.draw();
  });
}

type SessionItem = AgentItem['sessions'][number];

const isStale = (s: SessionItem): boolean => s.status === 'running' && s.liveness === 'stale';

function draw(root: HTMLElement, m: AgentsModel, ui: Ui): void {
  const openTask = ui.openTask;
  fill(
    root,
    h(
      'header',
      { class: 'board-header' },
      h('h1', null, 'Agents & Sessions'),
      h('span', { class: 'muted' }, `${m.agents.length} agents · ${m.running.length} running`),
      button('Refresh', () => ui.host.post({ type: 'refresh' })),
    ),
    ui.status,
    m.handoffs.length
      ? section(
          `Handoffs waiting (${m.handoffs.length})`,
          h(
            'ul',
            { class: 'plain' },
            ...m.handoffs.map((x) =>
              h(
                'li',
                null,
                h('strong', null, x.handoffId),
                ` ${x.fromAgent} → ${x.toAgent ?? 'any agent'} on `,
                link(`${x.taskId} ${x.taskTitle}`, () => openTask(Number(x.taskId.replace(/^task-/, '')))),
                h('div', { class: 'muted' }, x.summary),
              ),
            ),
          ),
        )
      : null,
    ...m.agents.map((a) => agentSection(a, m, ui)),
    m.problems.length
      ? section(
          'Definitions that could not be read',
          h('ul', null, ...m.problems.map((p) => h('li', null, h('code', null, p.file), ` ${p.message}`))),
        )
      : null,
  );
}

function agentSection(a: AgentItem, m: AgentsModel, ui: Ui): HTMLElement {
  const openTask = ui.openTask;
  const running = m.running.filter((r) => r.agentId === a.name);
  const facts = [a.client, a.model, a.sessionCounts, a.cost ? formatCostSummary(a.cost) : null]
    .filter(Boolean)
    .join(' · ');
  return h(
    'section',
    { class: 'agent', 'data-agent': a.name },
    h('h2', null, a.name, ' ', h('span', { class: 'muted', 'data-testid': 'agent-facts' }, facts)),
    a.description ? h('p', null, a.description) : null,
    a.scope
      ? h(
          'p',
          { class: 'muted' },
          `writes ${a.scope.write.length ? a.scope.write.join(', ') : 'nothing'}${a.scope.exclude.length ? ` · never ${a.scope.exclude.join(', ')}` : ''}`,
        )
      : null,
    running.length
      ? h(
          'p',
          null,
          h('span', { class: 'pill status-in_progress' }, 'running'),
          ` ${running.map((r) => `${r.executionId ?? ''} on ${r.taskId ?? '?'}`).join(', ')}`,
        )
      : null,
    a.sessions.length
      ? h(
          'ul',
          { class: 'plain' },
          ...a.sessions.map((s) =>
            h(
              'li',
              { 'data-session': s.id },
              isStale(s)
                ? h(
                    'span',
                    {
                      class: 'pill status-stale',
                      'data-testid': 'session-stale',
                      title:
                        'Its process is gone: nothing works on this session any more. End Session records its end.',
                    },
                    'stale',
                  )
                : h(
                    'span',
                    { class: `pill status-${s.status === 'running' ? 'in_progress' : s.status}` },
                    s.status === 'running' && s.liveness === 'elsewhere' ? 'running elsewhere' : s.status,
                  ),
              ' ',
              link(`task-${s.taskId} ${s.taskTitle}`, () => openTask(s.taskId)),
              h(
                'span',
                { class: 'muted' },
                ` · ${time(s.startedAt)}${s.worktree ? ` · ${s.worktree}` : ''}${s.endedBy ? ` · ended by ${s.endedBy}` : ''}`,
              ),
              isStale(s) ? (ui.ending.get(s.id) ?? endButton(s, m, ui)) : null,
            ),
          ),
        )
      : h('p', { class: 'muted' }, 'No sessions yet.'),
  );
}

function endButton(s: SessionItem, m: AgentsModel, ui: Ui): HTMLElement {
  return button(
    'End Session',
    () => {
      ui.ending.set(s.id, endForm(s, m.dodResults, ui));
      ui.draw();
      ui.ending.get(s.id)?.querySelector('input')?.focus();
    },
    'Record the end of this session, as you: its process is gone',
  );
}

/** Asks what the editor's End Session asks: the exit code and the Definition of Done result. */
function endForm(s: SessionItem, dodResults: readonly string[], ui: Ui): HTMLElement {
  const exitCode = h('input', {
    type: 'number',
    value: '0',
    step: 1,
    // The browser keeps the form from being sent empty or with a fraction; the server checks again.
    required: true,
    'aria-label': `Exit code of session ${s.id}`,
    title: 'Exit code of the worker process (0: it succeeded)',
  });
  const dod = h(
    'select',
    { 'aria-label': `Definition of Done result of session ${s.id}` },
    h('option', { value: '' }, 'No result'),
    ...dodResults.map((r) => h('option', { value: r }, r)),
  );
  const close = (): void => {
    ui.ending.delete(s.id);
    ui.draw();
  };
  return h(
    'form',
    {
      class: 'end-session',
      'data-testid': 'end-session',
      onsubmit: (e: Event) => {
        e.preventDefault();
        ui.host.post({
          type: 'endSession',
          sessionId: s.id,
          exitCode: Number(exitCode.value),
          ...(dod.value ? { dodResult: dod.value } : {}),
        });
      },
    },
    h('label', null, 'Exit code ', exitCode),
    h('label', null, ' Definition of Done ', dod),
    ' ',
    h('button', { type: 'submit' }, 'End Session'),
    button('Cancel', close),
  );
}
