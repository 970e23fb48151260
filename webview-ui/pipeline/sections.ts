import type {
  FindingSeverity,
  PipelineFinding,
  PipelineModel,
  PipelineWebviewMessage,
} from '../../src/shared/protocol';
import { formatDuration, formatTokens } from '../../src/core/format';
import { h, section, time } from '../dom';
import { artifactLink } from './decision';

type Post = (message: PipelineWebviewMessage) => void;

const severities: FindingSeverity[] = ['CRITICAL', 'MAJOR', 'MINOR', 'INFO'];

/** Review findings of every review and code review, by where they were raised, with severities. */
export function findingsSection(m: PipelineModel): HTMLElement | null {
  const groups = [
    ...m.phases
      .filter((p) => p.findings.length)
      .map((p) => ({ title: `${p.label}${p.verdict ? ` — ${p.verdict}` : ''}`, findings: p.findings })),
    ...m.tasks
      .filter((t) => t.findings.length)
      .map((t) => ({ title: `Task ${t.id}: ${t.title}${t.verdict ? ` — ${t.verdict}` : ''}`, findings: t.findings })),
  ];
  if (groups.length === 0) return null;
  const all = groups.flatMap((g) => g.findings);
  const counts = severities
    .map((s) => [s, all.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0);
  return section(
    `Review findings (${all.length})`,
    h('p', { class: 'severity-counts' }, ...counts.flatMap(([s, n]) => [severity(s), ` ${n}  `])),
    ...groups.map((g) =>
      h(
        'div',
        { class: 'finding-group' },
        h('h3', null, g.title),
        h('ul', { class: 'findings' }, ...g.findings.map(finding)),
      ),
    ),
  );
}

function finding(f: PipelineFinding): HTMLElement {
  return h('li', { 'data-severity': f.severity }, severity(f.severity), ' ', f.description);
}

function severity(s: FindingSeverity): HTMLElement {
  return h('span', { class: `sev sev-${s}` }, s);
}

/** Tokens, time and model per phase that ran, the totals, and per model. */
export function metricsSection(m: PipelineModel): HTMLElement {
  const ran = m.phases.filter((p) => p.runs > 0);
  if (ran.length === 0) return section('Metrics', h('p', { class: 'muted' }, 'No phase has reported yet.'));
  const row = (cells: (string | number)[], cls?: string): HTMLElement =>
    h(
      'tr',
      { class: cls },
      ...cells.map((c, i) => h(i === 0 ? 'th' : 'td', i === 0 ? { scope: 'row' } : null, String(c))),
    );
  const table = h(
    'table',
    { class: 'metrics', 'data-testid': 'metrics' },
    h(
      'thead',
      null,
      h('tr', null, ...['Phase', 'Model', 'Tokens', 'Duration', 'Runs'].map((c) => h('th', { scope: 'col' }, c))),
    ),
    h(
      'tbody',
      null,
      ...ran.map((p) =>
        row([p.label, p.model ?? '—', p.tokens.toLocaleString(), formatDuration(p.durationMs / 1000), p.runs]),
      ),
    ),
    h(
      'tfoot',
      null,
      row(
        [
          'Total',
          '',
          m.totals.tokens.toLocaleString(),
          formatDuration(m.totals.durationMs / 1000),
          ran.reduce((n, p) => n + p.runs, 0),
        ],
        'total',
      ),
    ),
  );
  const models =
    m.models.length > 1
      ? h(
          'p',
          { class: 'muted' },
          'By model: ',
          m.models
            .map((x) => `${x.model} ${formatTokens(x.tokens)} in ${formatDuration(x.durationMs / 1000)}`)
            .join(' · '),
        )
      : null;
  return section('Metrics', table, models);
}

/** Every decision taken on a checkpoint or gate: who, when, through what, and the comment. */
export function decisionsSection(m: PipelineModel): HTMLElement {
  if (m.decisions.length === 0) return section('Decisions', h('p', { class: 'muted' }, 'No checkpoint decided yet.'));
  return section(
    `Decisions (${m.decisions.length})`,
    h(
      'table',
      { class: 'decisions', 'data-testid': 'decisions' },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          ...['When', 'Checkpoint', 'Decision', 'Who', 'Via', 'Comment'].map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      h(
        'tbody',
        null,
        ...[...m.decisions]
          .reverse()
          .map((d) =>
            h(
              'tr',
              null,
              h('td', null, h('time', { datetime: d.at }, time(d.at))),
              h('td', null, d.label),
              h('td', { class: `decision-${d.decision}` }, d.decision),
              h('td', null, d.by),
              h('td', null, d.via),
              h('td', null, d.comment ?? ''),
            ),
          ),
      ),
    ),
  );
}

export function artifactsSection(m: PipelineModel, post: Post): HTMLElement {
  if (m.artifacts.length === 0) return section('Artifacts', h('p', { class: 'muted' }, 'No artifact written yet.'));
  return section(
    `Artifacts (${m.artifacts.length})`,
    h('ul', { class: 'artifacts' }, ...m.artifacts.map((a) => h('li', null, artifactLink(a, post)))),
  );
}
