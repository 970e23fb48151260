import type { ChangedFile, FileChangeKind, FileDiffModel, TaskDetailModel } from '../../src/shared/protocol';
import { h, section } from '../dom';
import type { Ui } from './taskDetail';

const groups: { kind: FileChangeKind; title: string }[] = [
  { kind: 'added', title: 'Added' },
  { kind: 'modified', title: 'Modified' },
  { kind: 'deleted', title: 'Deleted' },
  { kind: 'renamed', title: 'Renamed' },
];

/** Files changed, grouped by kind; each opens its exact diff (VS Code's diff editor, or inline). */
export function filesSection(m: TaskDetailModel, busy: boolean, ui: Ui): HTMLElement {
  const title = `Files changed${m.files.length ? ` (${m.files.length})` : ''}`;
  const note =
    m.filesSource === 'live'
      ? h('p', { class: 'muted' }, 'Measured just now against the task’s snapshot: the task is still running.')
      : m.filesSource === 'none'
        ? h('p', { class: 'muted' }, 'The task has not started, so nothing has been measured yet.')
        : null;
  const busyNote = busy ? h('p', { class: 'muted', role: 'status' }, 'Measuring changes…') : null;
  const warnings = m.warnings.map((w) => h('p', { class: 'callout warn', 'data-testid': 'scope-warning' }, w));
  if (m.files.length === 0) {
    return section(
      title,
      note,
      busyNote,
      ...warnings,
      m.filesSource === 'none' ? null : h('p', { class: 'muted' }, 'No files changed.'),
    );
  }
  const lists = groups
    .map(({ kind, title: groupTitle }) => {
      const files = m.files.filter((f) => f.kind === kind);
      if (files.length === 0) return null;
      return h(
        'div',
        { class: `file-group ${kind}` },
        h('h3', null, `${groupTitle} (${files.length})`),
        h('ul', { class: 'files' }, ...files.map((f) => fileRow(f, ui))),
      );
    })
    .filter((g): g is HTMLDivElement => g !== null);
  return section(title, note, busyNote, ...warnings, ...lists);
}

function fileRow(file: ChangedFile, ui: Ui): HTMLElement {
  const shown = ui.diffs.get(file.path);
  const label = file.kind === 'renamed' && file.from ? `${file.from} → ${file.path}` : file.path;
  const open = h(
    'a',
    {
      href: '#',
      class: `file ${file.kind}`,
      role: 'button',
      'data-path': file.path,
      'aria-expanded': ui.inEditor ? undefined : String(!!shown),
      title:
        file.kind === 'added'
          ? 'Open the new file (diff against nothing)'
          : file.kind === 'deleted'
            ? 'See what was deleted'
            : 'Open the diff: snapshot ↔ now',
      onclick: (e: Event) => {
        e.preventDefault();
        // In the view: a second click folds the diff away.
        if (shown) {
          ui.diffs.delete(file.path);
          ui.render();
          return;
        }
        ui.post({ type: 'openDiff', file });
      },
    },
    h('span', { class: `badge ${file.kind}`, 'aria-hidden': 'true' }, file.kind[0].toUpperCase()),
    label,
  );
  return h(
    'li',
    null,
    h(
      'div',
      { class: 'file-row' },
      open,
      shown && !shown.binary ? h('span', { class: 'muted' }, `+${shown.added} −${shown.removed}`) : null,
      file.outOfScope
        ? h('span', { class: 'out-of-scope', title: 'Outside the areas the task declared' }, '⚠ outside scope')
        : null,
      file.alsoChangedBy?.length
        ? h(
            'span',
            {
              class: 'also-changed',
              title: 'Another task working in the same folder at the same time changed this file too',
            },
            `also changed by ${file.alsoChangedBy.join(', ')}`,
          )
        : null,
    ),
    shown ? diffView(shown) : null,
  );
}

/** The exact diff of one file, as unified hunks (text only: nothing of the file is markup). */
function diffView(d: FileDiffModel): HTMLElement {
  const head = h('div', { class: 'diff-head muted' }, `${d.before} → ${d.after}`);
  if (d.binary)
    return h(
      'div',
      { class: 'diff', 'data-testid': 'diff' },
      head,
      h('p', { class: 'muted' }, 'Binary file: no line diff.'),
    );
  if (d.hunks.length === 0)
    return h(
      'div',
      { class: 'diff', 'data-testid': 'diff' },
      head,
      h('p', { class: 'muted' }, 'No line changed (mode or whitespace at end of file).'),
    );
  return h(
    'div',
    { class: 'diff', 'data-testid': 'diff' },
    head,
    h(
      'pre',
      { class: 'diff-body' },
      ...d.hunks.flatMap((hunk) => [
        h('span', { class: 'hunk' }, hunk.header),
        ...hunk.lines.map((l) =>
          h('span', { class: l.kind === '+' ? 'add' : l.kind === '-' ? 'del' : 'ctx' }, `${l.kind}${l.text}` || ' '),
        ),
      ]),
    ),
    d.truncated ? h('p', { class: 'muted' }, 'Cut: the diff is longer than shown.') : null,
  );
}
