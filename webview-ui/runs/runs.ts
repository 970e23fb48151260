import type { RunItem, RunsHostMessage, RunsModel, RunsWebviewMessage } from '../../src/shared/protocol';
import { formatCostSummary, formatDuration, formatUsd } from '../../src/core/format';
import { button, fill, h, link, section, time } from '../dom';
import type { Host } from '../hosts/host';

interface State {
  run?: string;
}

export type RunsHost = Host<RunsWebviewMessage, RunsHostMessage, State>;

/** Lines of one run's output the view keeps (the newest). */
const keptLines = 2000;

/**
 * Agent runs: what runs now, every run with its task, status, duration and cost, the activity of
 * the ledger, and one run's output followed live (the supervisor's redacted log).
 */
export function mountRuns(root: HTMLElement, host: RunsHost, initialRun?: string): void {
  let model: RunsModel | undefined;
  let following = initialRun ?? host.getState()?.run;
  const output = h('pre', { class: 'run-output', 'data-testid': 'run-output', 'aria-live': 'off' });
  let outputNote = '';
  const follow = (run: string | null): void => {
    following = run ?? undefined;
    host.setState({ run: following });
    output.replaceChildren();
    outputNote = '';
    host.post({ type: 'openRun', run });
    render();
  };
  const render = (): void => {
    if (!model) return;
    fill(
      root,
      h(
        'header',
        { class: 'board-header' },
        h('h1', null, 'Runs'),
        h('span', { class: 'muted', 'data-testid': 'runs-total' }, formatCostSummary(model.totals)),
        button('Refresh', () => host.post({ type: 'refresh' })),
      ),
      runningSection(model),
      following ? outputSection(following, output, outputNote, () => follow(null)) : null,
      runsTable(model.runs, following, follow, (taskId) => host.post({ type: 'openTask', taskId })),
      activitySection(model),
    );
  };
  host.listen((message) => {
    switch (message.type) {
      case 'runs':
        model = message.model;
        render();
        if (following && !output.childElementCount && !outputNote) host.post({ type: 'openRun', run: following });
        return;
      case 'runOutput': {
        if (message.run !== following) return;
        if (message.reset) output.replaceChildren();
        outputNote = message.missing ?? '';
        const atEnd = output.scrollTop + output.clientHeight >= output.scrollHeight - 4;
        for (const l of message.lines) output.append(h('span', { class: `out-${l.stream}` }, `${l.text}\n`));
        while (output.childElementCount > keptLines) output.firstElementChild?.remove();
        if (atEnd) output.scrollTop = output.scrollHeight;
        if (message.missing) render();
        return;
      }
      case 'error':
        root.replaceChildren(h('p', { class: 'error' }, message.message));
        return;
    }
  });
}

function runningSection(m: RunsModel): HTMLElement {
  if (m.running.length === 0) return section('Running now', h('p', { class: 'muted' }, 'No agent runs right now.'));
  return section(
    `Running now (${m.running.length})`,
    h(
      'ul',
      { class: 'plain' },
      ...m.running.map((r) =>
        h(
          'li',
          null,
          h('strong', null, r.agentId),
          ` on ${r.taskId ?? 'no task'}${r.taskTitle ? ` “${r.taskTitle}”` : ''} · ${r.client ?? ''} · since ${r.since ? time(r.since) : '?'}`,
        ),
      ),
    ),
  );
}

function outputSection(run: string, output: HTMLElement, note: string, close: () => void): HTMLElement {
  return section(
    `Output of ${run}`,
    h('div', { class: 'actions' }, button('Stop following', close)),
    note ? h('p', { class: 'muted' }, note) : null,
    output,
  );
}

function runsTable(
  runs: RunItem[],
  following: string | undefined,
  follow: (run: string) => void,
  openTask: (taskId: number) => void,
): HTMLElement {
  if (runs.length === 0)
    return section(
      'Runs',
      h('p', { class: 'muted' }, 'No runs yet: `agent-ledger runner` launches agents and records each run here.'),
    );
  const rows = runs.map((r) => {
    const taskId = r.taskId ? Number(r.taskId.replace(/^task-/, '')) : null;
    return h(
      'tr',
      { 'data-run': r.executionId, class: r.executionId === following ? 'selected' : undefined },
      h(
        'td',
        null,
        link(r.executionId, () => follow(r.executionId)),
      ),
      h('td', null, r.agentId),
      h('td', null, taskId ? link(`${r.taskId}${r.taskTitle ? ` ${r.taskTitle}` : ''}`, () => openTask(taskId)) : '—'),
      h('td', { class: `run-${r.status}` }, r.result ? `${r.status} (${r.result})` : r.status),
      h('td', null, time(r.startedAt)),
      h('td', { class: 'num' }, r.durationSeconds === null ? '' : formatDuration(r.durationSeconds)),
      h('td', { class: 'num', 'data-testid': 'run-cost' }, r.costUsd === null ? '' : formatUsd(r.costUsd)),
    );
  });
  return section(
    `Runs (${runs.length})`,
    h(
      'table',
      { class: 'runs' },
      h(
        'thead',
        null,
        h('tr', null, ...['Run', 'Agent', 'Task', 'Status', 'Started', 'Took', 'Cost'].map((c) => h('th', null, c))),
      ),
      h('tbody', null, ...rows),
    ),
  );
}

function activitySection(m: RunsModel): HTMLElement | null {
  if (m.activity.length === 0) return null;
  return section(
    'Activity',
    h(
      'ol',
      { class: 'activity', 'data-testid': 'activity' },
      ...[...m.activity]
        .reverse()
        .map((a) =>
          h(
            'li',
            null,
            h('time', { datetime: a.at }, time(a.at)),
            ' ',
            h('span', { class: `kind ${a.kind.split('.')[0]}` }, a.kind),
            ' ',
            a.task ?? '',
            a.title ? ` ${a.title}` : '',
            ` — ${a.text}`,
          ),
        ),
    ),
  );
}
