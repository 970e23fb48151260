import type { AgentItem, AgentsHostMessage, AgentsModel, AgentsWebviewMessage } from '../../src/shared/protocol';
import { formatCostSummary } from '../../src/core/format';
import { button, fill, h, link, section, time } from '../dom';
import type { Host } from '../hosts/host';

export type AgentsHost = Host<AgentsWebviewMessage, AgentsHostMessage, unknown>;

/** Agents and their sessions: definition, scope, cost, running instances, handoffs waiting. */
export function mountAgents(root: HTMLElement, host: AgentsHost): void {
  const openTask = (taskId: number): void => host.post({ type: 'openTask', taskId });
  host.listen((message) => {
    if (message.type === 'error') root.replaceChildren(h('p', { class: 'error' }, message.message));
    if (message.type !== 'agents') return;
    const m: AgentsModel = message.model;
    fill(
      root,
      h(
        'header',
        { class: 'board-header' },
        h('h1', null, 'Agents & Sessions'),
        h('span', { class: 'muted' }, `${m.agents.length} agents · ${m.running.length} running`),
        button('Refresh', () => host.post({ type: 'refresh' })),
      ),
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
      ...m.agents.map((a) => agentSection(a, m, openTask)),
      m.problems.length
        ? section(
            'Definitions that could not be read',
            h('ul', null, ...m.problems.map((p) => h('li', null, h('code', null, p.file), ` ${p.message}`))),
          )
        : null,
    );
  });
}

function agentSection(a: AgentItem, m: AgentsModel, openTask: (id: number) => void): HTMLElement {
  const running = m.running.filter((r) => r.agentId === a.name);
  const facts = [a.client, a.model, a.cost ? formatCostSummary(a.cost) : null].filter(Boolean).join(' · ');
  return h(
    'section',
    { class: 'agent', 'data-agent': a.name },
    h('h2', null, a.name, ' ', h('span', { class: 'muted' }, facts)),
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
              null,
              s.status === 'running' && s.liveness === 'stale'
                ? h(
                    'span',
                    {
                      class: 'pill status-stale',
                      'data-testid': 'session-stale',
                      title: `Its process is gone: end it with agent-ledger session end ${s.id} --exit-code <code>`,
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
              h('span', { class: 'muted' }, ` · ${time(s.startedAt)}${s.worktree ? ` · ${s.worktree}` : ''}`),
            ),
          ),
        )
      : h('p', { class: 'muted' }, 'No sessions yet.'),
  );
}
