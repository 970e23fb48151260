import type { NextActionResponse } from '../../core/pipelines/engine/actions';
import type { ReportResult } from '../../core/pipelines/pipelineContracts';
import type { PipelineDetail, PipelineSummary, PhaseView } from '../../core/pipelines/pipelineQueries';
import { formatMs } from '../../core/pipelines/engine/summary';
import { age, style, table } from '../output';
import { visible, visibleBlock } from '../terminalText';
import { plural } from '../../core/format';

/** Text output of `agent-ledger pipeline …` (the --json output is the core objects as they are). */

export function formatPipelineList(pipelines: PipelineSummary[], total: number): string[] {
  if (pipelines.length === 0)
    return [
      'No pipelines yet. Start one with `agent-ledger pipeline init "what to do"` or through the pipeline_init tool.',
    ];
  const rows = [
    [
      style.dim('WORKSPACE'),
      style.dim('STATUS'),
      style.dim('EFFORT'),
      style.dim('PHASE'),
      style.dim('TOKENS'),
      style.dim('UPDATED'),
      style.dim('TITLE'),
    ],
  ];
  for (const p of pipelines) {
    const status =
      p.status === 'awaiting_human'
        ? style.yellow(`waiting: ${visible(p.waiting?.name)}`)
        : p.status === 'completed'
          ? style.green(p.status)
          : p.status === 'abandoned'
            ? style.red(p.status)
            : style.cyan(p.status);
    rows.push([
      style.bold(visible(p.workspace)),
      status,
      p.effort,
      visible(p.currentPhase),
      p.totalTokens.toLocaleString('en-US'),
      age(p.updatedAt),
      visible(p.title),
    ]);
  }
  const lines = table(rows);
  if (total > pipelines.length) lines.push(style.dim(`… ${total - pipelines.length} more (use --limit)`));
  return lines;
}

const marks: Record<PhaseView['status'], string> = { completed: '✓', in_progress: '▶', pending: '·', skipped: '–' };

export function formatPipelineDetail(d: PipelineDetail): string[] {
  const lines = [
    `${style.bold(visible(d.workspace))}  ${style.bold(visible(d.title))}`,
    `  ${statusText(d.status)} · effort ${d.effort} (${visible(d.flowTemplate)}) · phase ${visible(d.currentPhase)} · ${d.totals.tokens.toLocaleString('en-US')} tokens · ${formatMs(d.totals.durationMs)} agent time`,
    style.dim(
      `  source ${d.source.type}${d.source.url ? ` ${visible(d.source.url)}` : ''}${d.branch ? ` · branch ${visible(d.branch)}` : ''}${d.workflowId ? ` · workflow ${visible(String(d.workflowId))}` : ''} · flow ${visible(d.flowSource)}`,
    ),
    '',
  ];
  const rows: string[][] = [];
  for (const p of d.phases) {
    const waiting = d.waiting?.phase === p.id;
    const mark = waiting
      ? style.yellow('⏸')
      : p.current && p.status !== 'completed'
        ? style.cyan(marks.in_progress)
        : p.status === 'completed'
          ? style.green(marks.completed)
          : style.dim(marks[p.status]);
    const name =
      p.status === 'skipped'
        ? style.dim(`${visible(p.id)}  ${visible(p.label)} (skipped)`)
        : `${visible(p.id)}  ${visible(p.label)}`;
    const verdict = p.verdict
      ? `${visible(p.verdict)}${p.findings.length ? ` (${plural(p.findings.length, 'finding')})` : ''}`
      : '';
    const metrics = p.runs
      ? `${formatMs(p.durationMs)}  ${p.tokens.toLocaleString('en-US')} tok  ${visible(p.model)}`
      : '';
    rows.push([
      `  ${mark}`,
      name,
      metrics,
      p.revision ? style.yellow(`rev ${p.revision}`) : '',
      waiting ? style.yellow('WAITING FOR A PERSON') : verdict,
    ]);
  }
  lines.push(...table(rows).map((l) => l.trimEnd()));
  if (d.tasks.length) {
    lines.push('', style.bold('Tasks'));
    for (const t of d.tasks) {
      lines.push(
        `  ${visible(String(t.id))}. ${visible(t.title)}  ${style.dim(`${t.status}${t.mode !== 'sequential' ? ` · ${t.mode}` : ''} · ${plural(t.attempts, 'run')}${t.verdict ? ` · ${visible(t.verdict)}` : ''}${t.ledgerTaskId ? ` · ${t.ledgerTaskId}` : ''}${t.filesChanged !== null ? ` · ${plural(t.filesChanged, 'file')}` : ''}`)}`,
      );
    }
  }
  if (d.decisions.length) {
    lines.push('', style.bold('Decisions'));
    for (const x of d.decisions)
      lines.push(
        `  ${visible(x.name)}: ${visible(x.decision)} by ${visible(x.decided_by)} (${x.via}) ${age(x.decided_at)} ago${x.comment ? ` — ${visible(x.comment)}` : ''}`,
      );
  }
  if (d.waiting)
    lines.push(
      '',
      style.yellow(`Waiting at ${visible(d.waiting.name)}:`),
      ...visibleBlock(d.waiting.presentToUser)
        .split('\n')
        .map((l) => `  ${l}`),
    );
  return lines;
}

export function formatAction(a: NextActionResponse): string[] {
  const lines = [style.bold(visible(a.display_message)), `type: ${a.type}`];
  switch (a.type) {
    case 'spawn_agent':
      lines.push(
        `agent: ${visible(a.agent)} (${visible(a.model)}) · phase ${visible(a.phase)}`,
        `inputs: ${a.input_files.map(visible).join(', ') || '-'}`,
        `output: ${visible(a.output_file)}`,
      );
      if (a.parallel_task_ids)
        lines.push(`parallel tasks: ${a.parallel_task_ids.map((id) => visible(String(id))).join(', ')}`);
      lines.push('', visibleBlock(a.prompt));
      break;
    case 'checkpoint':
    case 'human_gate':
      lines.push(
        `name: ${visible(a.name)} · options: ${a.options.map(visible).join(' / ')}`,
        '',
        visibleBlock(a.present_to_user),
      );
      break;
    case 'exec':
      lines.push(`commands: ${JSON.stringify(a.commands)}${a.setup_only ? ' (setup only)' : ''}`);
      break;
    case 'write_file':
      lines.push(`path: ${visible(a.path)}`, '', visibleBlock(a.content));
      break;
    case 'done':
      lines.push(a.summary_path ? `summary: ${visible(a.summary_path)}` : '');
      break;
  }
  if (a.report_result) lines.push('', ...formatReport(a.report_result));
  if (a.warning) lines.push('', style.yellow(`warning: ${visible(a.warning)}`));
  return lines;
}

export function formatReport(r: ReportResult): string[] {
  const lines = [
    `reported: ${visible(r.artifact_written ?? 'no artifact')} · hint ${r.next_action_hint}${r.verdict_parsed ? ` · verdict ${visible(r.verdict_parsed)}` : ''}`,
  ];
  for (const f of r.findings) lines.push(`  [${visible(f.severity)}] ${visible(f.description)}`);
  if (r.display_message) lines.push(style.dim(visible(r.display_message)));
  if (r.warning) lines.push(style.yellow(`warning: ${visible(r.warning)}`));
  return lines;
}

function statusText(status: PipelineDetail['status']): string {
  if (status === 'awaiting_human') return style.yellow('waiting for a person');
  if (status === 'completed') return style.green('completed');
  if (status === 'abandoned') return style.red('abandoned');
  return style.cyan('running');
}
