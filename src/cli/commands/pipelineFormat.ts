import type { NextActionResponse, ReportResult } from '../../core/pipeline/actions';
import type { PipelineDetail, PipelineSummary, PhaseView } from '../../core/pipeline/pipelineQueries';
import { formatMs } from '../../core/pipeline/summary';
import { age, style, table } from '../output';

/** Text output of `agent-ledger pipeline …` (the --json output is the core objects as they are). */

export function formatPipelineList(pipelines: PipelineSummary[], total: number): string[] {
  if (pipelines.length === 0) return ['No pipelines yet. Start one with `agent-ledger pipeline init "what to do"` or through the pipeline_init tool.'];
  const rows = [[style.dim('WORKSPACE'), style.dim('STATUS'), style.dim('EFFORT'), style.dim('PHASE'), style.dim('TOKENS'), style.dim('UPDATED'), style.dim('TITLE')]];
  for (const p of pipelines) {
    const status = p.status === 'awaiting_human' ? style.yellow(`waiting: ${p.waiting?.name ?? ''}`) : p.status === 'completed' ? style.green(p.status) : p.status === 'abandoned' ? style.red(p.status) : style.cyan(p.status);
    rows.push([style.bold(p.workspace), status, p.effort, p.currentPhase, p.totalTokens.toLocaleString('en-US'), age(p.updatedAt), p.title]);
  }
  const lines = table(rows);
  if (total > pipelines.length) lines.push(style.dim(`… ${total - pipelines.length} more (use --limit)`));
  return lines;
}

const marks: Record<PhaseView['status'], string> = { completed: '✓', in_progress: '▶', pending: '·', skipped: '–' };

export function formatPipelineDetail(d: PipelineDetail): string[] {
  const lines = [
    `${style.bold(d.workspace)}  ${style.bold(d.title)}`,
    `  ${statusText(d.status)} · effort ${d.effort} (${d.flowTemplate}) · phase ${d.currentPhase} · ${d.totals.tokens.toLocaleString('en-US')} tokens · ${formatMs(d.totals.durationMs)} agent time`,
    style.dim(`  source ${d.source.type}${d.source.url ? ` ${d.source.url}` : ''}${d.branch ? ` · branch ${d.branch}` : ''}${d.workflowId ? ` · workflow ${d.workflowId}` : ''} · flow ${d.flowSource}`),
    '',
  ];
  const rows: string[][] = [];
  for (const p of d.phases) {
    const waiting = d.waiting?.phase === p.id;
    const mark = waiting ? style.yellow('⏸') : p.current && p.status !== 'completed' ? style.cyan(marks.in_progress) : p.status === 'completed' ? style.green(marks.completed) : style.dim(marks[p.status]);
    const name = p.status === 'skipped' ? style.dim(`${p.id}  ${p.label} (skipped)`) : `${p.id}  ${p.label}`;
    const verdict = p.verdict ? `${p.verdict}${p.findings.length ? ` (${p.findings.length} finding${p.findings.length > 1 ? 's' : ''})` : ''}` : '';
    const metrics = p.runs ? `${formatMs(p.durationMs)}  ${p.tokens.toLocaleString('en-US')} tok  ${p.model ?? ''}` : '';
    rows.push([`  ${mark}`, name, metrics, p.revision ? style.yellow(`rev ${p.revision}`) : '', waiting ? style.yellow('WAITING FOR A PERSON') : verdict]);
  }
  lines.push(...table(rows).map((l) => l.trimEnd()));
  if (d.tasks.length) {
    lines.push('', style.bold('Tasks'));
    for (const t of d.tasks) {
      lines.push(`  ${t.id}. ${t.title}  ${style.dim(`${t.status}${t.mode !== 'sequential' ? ` · ${t.mode}` : ''} · ${t.attempts} run(s)${t.verdict ? ` · ${t.verdict}` : ''}${t.ledgerTaskId ? ` · ${t.ledgerTaskId}` : ''}${t.filesChanged !== null ? ` · ${t.filesChanged} file(s)` : ''}`)}`);
    }
  }
  if (d.decisions.length) {
    lines.push('', style.bold('Decisions'));
    for (const x of d.decisions) lines.push(`  ${x.name}: ${x.decision} by ${x.decided_by} (${x.via}) ${age(x.decided_at)} ago${x.comment ? ` — ${x.comment}` : ''}`);
  }
  if (d.waiting) lines.push('', style.yellow(`Waiting at ${d.waiting.name}:`), ...d.waiting.presentToUser.split('\n').map((l) => `  ${l}`));
  return lines;
}

export function formatAction(a: NextActionResponse): string[] {
  const lines = [style.bold(a.display_message), `type: ${a.type}`];
  switch (a.type) {
    case 'spawn_agent':
      lines.push(`agent: ${a.agent} (${a.model}) · phase ${a.phase}`, `inputs: ${a.input_files.join(', ') || '-'}`, `output: ${a.output_file}`);
      if (a.parallel_task_ids) lines.push(`parallel tasks: ${a.parallel_task_ids.join(', ')}`);
      lines.push('', a.prompt);
      break;
    case 'checkpoint':
    case 'human_gate':
      lines.push(`name: ${a.name} · options: ${a.options.join(' / ')}`, '', a.present_to_user);
      break;
    case 'exec':
      lines.push(`commands: ${JSON.stringify(a.commands)}${a.setup_only ? ' (setup only)' : ''}`);
      break;
    case 'write_file':
      lines.push(`path: ${a.path}`, '', a.content);
      break;
    case 'done':
      lines.push(a.summary_path ? `summary: ${a.summary_path}` : '');
      break;
  }
  if (a.report_result) lines.push('', ...formatReport(a.report_result));
  if (a.warning) lines.push('', style.yellow(`warning: ${a.warning}`));
  return lines;
}

export function formatReport(r: ReportResult): string[] {
  const lines = [`reported: ${r.artifact_written ?? 'no artifact'} · hint ${r.next_action_hint}${r.verdict_parsed ? ` · verdict ${r.verdict_parsed}` : ''}`];
  for (const f of r.findings) lines.push(`  [${f.severity}] ${f.description}`);
  if (r.display_message) lines.push(style.dim(r.display_message));
  if (r.warning) lines.push(style.yellow(`warning: ${r.warning}`));
  return lines;
}

function statusText(status: PipelineDetail['status']): string {
  if (status === 'awaiting_human') return style.yellow('waiting for a person');
  if (status === 'completed') return style.green('completed');
  if (status === 'abandoned') return style.red('abandoned');
  return style.cyan('running');
}
