import type { FlowTemplate } from './flowTemplate';
import type { PipelineState } from './pipelineState';
import { totals } from './pipelineState';
import { formatDurationCompact } from '../../format';

/**
 * summary.md, written by the engine from the state (a `write_file` action): what ran, what it
 * cost, what reviewers found and who decided what. Pure, so it is the same for the same state;
 * the summary phase's own run is left out (it is in progress while this is written).
 */
export function renderSummary(state: PipelineState, flow: FlowTemplate): string {
  const lines: string[] = [`# Summary: ${state.title}`, ''];
  lines.push(`- Workspace: ${state.workspace}`);
  lines.push(`- Source: ${state.source.type}${state.source.url ? ` (${state.source.url})` : ''}`);
  lines.push(`- Effort: ${state.effort} (${state.flow_template} flow)`);
  if (state.branch) lines.push(`- Branch: ${state.branch}`);
  const sum = totals(state);
  lines.push(`- Tokens: ${sum.tokens.toLocaleString('en-US')} · Agent time: ${formatMs(sum.duration_ms)}`, '');

  lines.push(
    '## Phases',
    '',
    '| Phase | Status | Duration | Tokens | Model | Verdict | Revisions |',
    '|---|---|---|---|---|---|---|',
  );
  for (const p of flow.phases) {
    if (p.kind === 'summary') continue;
    const r = state.phases[p.id];
    if (!r) continue;
    lines.push(
      `| ${p.label} (${p.id}) | ${r.status} | ${r.metrics.runs ? formatMs(r.metrics.duration_ms) : '-'} | ${r.metrics.tokens || '-'} | ${r.metrics.model ?? '-'} | ${r.verdict ?? '-'} | ${r.revision || '-'} |`,
    );
  }
  lines.push('');

  if (state.tasks.length) {
    lines.push(
      '## Tasks',
      '',
      '| Task | Status | Attempts | Verdict | Ledger task | Files changed |',
      '|---|---|---|---|---|---|',
    );
    for (const t of state.tasks) {
      lines.push(
        `| ${t.id}. ${t.title} | ${t.status} | ${t.attempts} | ${t.verdict ?? '-'} | ${t.ledger_task_id ?? '-'} | ${t.files_changed ?? '-'} |`,
      );
    }
    lines.push('');
  }

  const findings = [
    ...flow.phases.flatMap((p) => (state.phases[p.id]?.findings ?? []).map((f) => ({ where: p.id, ...f }))),
    ...state.tasks.flatMap((t) => t.findings.map((f) => ({ where: `task ${t.id}`, ...f }))),
  ];
  if (findings.length) {
    lines.push('## Review findings', '');
    for (const f of findings) lines.push(`- [${f.severity}] (${f.where}) ${f.description}`);
    lines.push('');
  }

  if (state.decisions.length) {
    lines.push('## Human decisions', '');
    for (const d of state.decisions)
      lines.push(
        `- ${d.name}: ${d.decision} by ${d.decided_by} (${d.via}) at ${d.decided_at}${d.comment ? ` — ${d.comment}` : ''}`,
      );
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

export function formatMs(ms: number): string {
  return formatDurationCompact(ms / 1000);
}
