import type {
  FileDiffModel,
  TaskDetailHostMessage,
  TaskDetailModel,
  TaskDetailWebviewMessage,
} from '../../src/shared/protocol';
import { formatCostSummary, formatDuration, elapsedSeconds, plural } from '../../src/core/format';
import { button, h, link, section } from '../dom';
import type { Host } from '../hosts/host';
import { filesSection } from './files';
import { timelineSection } from './timeline';
import { attention, noteInput } from './attention';

interface State {
  folder: string;
  taskId: number;
}

export type TaskDetailHost = Host<TaskDetailWebviewMessage, TaskDetailHostMessage, State>;

/**
 * The task detail: header, goal, outcome, files changed, timeline. Re-rendered on every model.
 * A file opens VS Code's diff editor in the editor; where the host answers with the diff itself
 * (the web board), it shows under the file.
 */
export function mountTaskDetail(root: HTMLElement, host: TaskDetailHost): void {
  let busy = false;
  let model: TaskDetailModel | undefined;
  let acted: { ok: boolean; text: string } | undefined;
  const diffs = new Map<string, FileDiffModel>();
  const render = (): void => {
    if (!model) return;
    const flash = acted
      ? h('p', { class: `callout ${acted.ok ? 'ok' : 'warn'}`, role: 'status', 'data-testid': 'acted' }, acted.text)
      : null;
    root.replaceChildren(
      header(model, ui),
      ...(flash ? [flash] : []),
      ...attention(model, ui),
      ...body(model, busy, ui),
    );
  };
  const ui: Ui = {
    post: host.post,
    inEditor: host.kind === 'vscode',
    acts: host.kind === 'browser',
    diffs,
    note: noteInput(),
    render,
  };
  host.listen((message) => {
    switch (message.type) {
      case 'taskDetail':
        if (model && model.task.id !== message.model.task.id) diffs.clear();
        model = message.model;
        // Lets VS Code bring this panel back after a reload (the host's serializer reads it).
        host.setState({ folder: model.folder, taskId: model.task.id });
        render();
        break;
      case 'busy':
        busy = message.busy;
        render();
        break;
      case 'fileDiff':
        diffs.set(message.file.path, message.diff);
        render();
        break;
      case 'acted':
        acted = { ok: message.ok, text: message.text };
        render();
        break;
      case 'error':
        root.replaceChildren(h('p', { class: 'error' }, message.message));
        break;
    }
  });
}

type Post = (message: TaskDetailWebviewMessage) => void;

/** What the parts of the view need: where to post, which host, the diffs shown so far. */
export interface Ui {
  post: Post;
  /** VS Code: actions that need the editor (rewind, export, the diff editor). */
  inEditor: boolean;
  /** The web board: a person's changes of the task (assign, cancel) from here. */
  acts: boolean;
  diffs: Map<string, FileDiffModel>;
  /** The review's note, kept across renders. */
  note: HTMLTextAreaElement;
  render(): void;
}

function header(m: TaskDetailModel, ui: Ui): HTMLElement {
  const post = ui.post;
  const t = m.task;
  const crumbs = h(
    'nav',
    { class: 'crumbs', 'aria-label': 'Where this task belongs' },
    m.folderName,
    m.workflow ? [' › ', h('span', { title: m.workflow.key }, m.workflow.name)] : null,
    m.parent ? [' › ', link(m.parent.title, () => post({ type: 'openTask', taskId: m.parent!.id }))] : null,
  );
  const seconds = t.durationSeconds ?? (t.status === 'in_progress' && t.startedAt ? elapsedSeconds(t.startedAt) : null);
  const facts = [
    seconds !== null ? `${t.status === 'in_progress' ? 'running for' : 'took'} ${formatDuration(seconds)}` : null,
    t.assignee ? `@${t.assignee}` : null,
    `${t.priority} ${t.type}`,
    t.snapshot ? `snapshot ${t.snapshot.type === 'git' ? t.snapshot.id.slice(0, 8) : t.snapshot.id}` : null,
    t.worktree ? `worktree ${t.worktree}` : null,
    m.cost ? `cost ${formatCostSummary(m.cost)}` : null,
  ].filter((f): f is string => f !== null);
  return h(
    'header',
    null,
    crumbs,
    h('h1', null, h('span', { class: 'key' }, t.key), ' ', t.title),
    h(
      'div',
      { class: 'facts' },
      statusPill(t.status, t.result),
      ...facts.map((f) => h('span', { class: 'fact' }, f)),
      ...t.labels.map((l) => h('span', { class: 'chip' }, l)),
    ),
    t.status === 'in_progress' ? progress(t.progress, t.lastMilestone) : null,
    actions(m, ui),
  );
}

function statusPill(status: string, result: string | null): HTMLElement {
  const label =
    status === 'done' && result && result !== 'success' ? result.replace('_', ' ') : status.replace('_', ' ');
  return h('span', { class: `pill status-${status} result-${result ?? 'none'}`, 'data-testid': 'status' }, label);
}

function progress(value: number | null, milestone: string | null): HTMLElement {
  const bar = h('div', {
    class: 'bar',
    role: 'progressbar',
    'aria-valuemin': 0,
    'aria-valuemax': 100,
    'aria-valuenow': value ?? undefined,
  });
  const fill = h('div', { class: 'fill' });
  fill.style.width = `${value ?? 0}%`;
  bar.append(fill);
  return h(
    'div',
    { class: 'progress' },
    bar,
    h('span', { class: 'muted' }, `${value !== null ? `${value}%` : ''}${milestone ? ` — ${milestone}` : ''}`),
  );
}

function actions(m: TaskDetailModel, ui: Ui): HTMLElement {
  const post = ui.post;
  const open = m.task.status === 'open' || m.task.status === 'in_progress';
  return h(
    'div',
    { class: 'actions' },
    button('Refresh', () => post({ type: 'refresh' }), 'Re-read the ledger (and re-measure a running task’s files)'),
    ui.acts && open ? assignBox(m, post) : null,
    ui.acts && open
      ? button('Cancel task', () => post({ type: 'cancel' }), 'Cancel this task (recorded as your change)')
      : null,
    ui.inEditor && m.canRewind
      ? button(
          'Rewind…',
          () => post({ type: 'rewind' }),
          'Put the files this task changed back as they were when it started',
        )
      : null,
    ui.inEditor && m.lastRewind?.undoable
      ? button('Undo Rewind', () => post({ type: 'undoRewind' }), 'Put back what the last rewind overwrote')
      : null,
    ui.inEditor && m.workflow
      ? button('Export Workflow Report', () => post({ type: 'exportWorkflow' }), 'Open the workflow’s Markdown report')
      : null,
  );
}

/** Assign the task to an agent by name: the keyboard's way to what the Board's drag does. */
function assignBox(m: TaskDetailModel, post: Post): HTMLElement {
  const input = h('input', {
    type: 'text',
    'aria-label': 'Assign to agent',
    placeholder: 'agent name',
    value: m.task.assignee ?? '',
    size: 14,
  });
  const submit = (): void => {
    const agent = input.value.trim();
    if (agent) post({ type: 'assign', agent });
  };
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') submit();
  });
  return h('span', { class: 'assign' }, input, button('Assign', submit, 'Assign this task to the agent named'));
}

function body(m: TaskDetailModel, busy: boolean, ui: Ui): HTMLElement[] {
  const post = ui.post;
  const t = m.task;
  const sections: HTMLElement[] = [];
  if (t.goal || t.description || t.areas.length) {
    sections.push(
      section(
        'Goal',
        t.goal ? h('p', { class: 'goal' }, t.goal) : null,
        t.description && t.description !== t.goal ? h('p', { class: 'muted' }, t.description) : null,
        t.areas.length
          ? h(
              'p',
              { class: 'areas' },
              h('span', { class: 'muted' }, 'Areas: '),
              ...t.areas.map((a) => h('code', { class: 'chip' }, a)),
            )
          : null,
      ),
    );
  }
  if (m.outcome) sections.push(outcome(m.outcome, m.reviewed));
  if (m.lastRewind) {
    sections.push(
      h(
        'p',
        { class: `callout ${m.lastRewind.undoable ? 'warn' : ''}` },
        m.lastRewind.undoable
          ? `Rewound ${plural(m.lastRewind.paths.length, 'file')} at ${new Date(m.lastRewind.at).toLocaleString()}. Undo Rewind puts them back.`
          : `The last rewind (${new Date(m.lastRewind.at).toLocaleString()}) was undone.`,
      ),
    );
  }
  sections.push(filesSection(m, busy, ui));
  if (m.commits.length)
    sections.push(
      section(
        `Commits (${m.commits.length})`,
        h(
          'ul',
          { class: 'commits' },
          ...m.commits.map((c) => h('li', null, h('code', null, c.sha.slice(0, 7)), ' ', c.subject)),
        ),
      ),
    );
  sections.push(timelineSection(m.timeline));
  if (m.subTasks.length) {
    sections.push(
      section(
        `Sub-tasks (${m.subTasks.length})`,
        h(
          'ul',
          { class: 'subtasks' },
          ...m.subTasks.map((s) =>
            h(
              'li',
              null,
              statusPill(s.status, s.result),
              ' ',
              link(`${s.key} ${s.title}`, () => post({ type: 'openTask', taskId: s.id })),
            ),
          ),
        ),
      ),
    );
  }
  return sections;
}

function outcome(o: NonNullable<TaskDetailModel['outcome']>, reviewed: TaskDetailModel['reviewed']): HTMLElement {
  const list = (title: string, items: string[] | undefined): HTMLElement | null =>
    items?.length ? h('div', null, h('h3', null, title), h('ul', null, ...items.map((i) => h('li', null, i)))) : null;
  return section(
    'Outcome',
    o.manual_review_needed
      ? h(
          'p',
          { class: 'callout warn', 'data-testid': 'manual-review' },
          `Manual review needed${o.manual_review_reason ? `: ${o.manual_review_reason}` : ''}`,
        )
      : null,
    // Once a person answered, the page says who and how, for whoever opens it later.
    reviewed
      ? h(
          'p',
          { class: 'callout', 'data-testid': 'reviewed' },
          `Review ${reviewed.verdict} by ${reviewed.by}${reviewed.note ? `: ${reviewed.note}` : ''}`,
        )
      : null,
    h('p', null, o.summary),
    list('Achievements', o.achievements),
    list('Limitations', o.limitations),
    list('Next steps', o.next_steps),
  );
}
