import * as vscode from 'vscode';
import type { PhaseView, PipelineDetail, PipelineSummary, TaskView } from '../../../core/pipelines/pipelineQueries';
import { formatAge, plural, truncate } from '../../../core/format';
import { Commands } from '../../commands/commandIds';
import type { FolderLedger } from '../../ledger/folderLedger';
import {
  checkpointTitle,
  lastDecision,
  metricsText,
  phaseDescription,
  pipelineDescription,
  pipelineTaskDescription,
} from '../../../views/pipelineText';

export interface PipelineNode {
  readonly kind: 'pipeline';
  readonly ledger: FolderLedger;
  readonly summary: PipelineSummary;
  /** Phase labels of the flow the engine runs (ids → "Design"). */
  readonly labelOf: (phaseId: string) => string | undefined;
}

export interface PhaseNode {
  readonly kind: 'phase';
  readonly ledger: FolderLedger;
  readonly parent: PipelineNode;
  readonly detail: PipelineDetail;
  readonly phase: PhaseView;
}

export interface PipelineTaskNode {
  readonly kind: 'pipelineTask';
  readonly ledger: FolderLedger;
  readonly parent: PhaseNode;
  readonly task: TaskView;
}

export type PipelinesNode = PipelineNode | PhaseNode | PipelineTaskNode;

const warn = new vscode.ThemeColor('list.warningForeground');
const waitingIcon = new vscode.ThemeIcon('bell-dot', warn);

/** Whether a person's decision is awaited at this phase (a checkpoint, a revision limit, a human gate in it). */
export function isWaitingPhase(detail: PipelineDetail, phase: PhaseView): boolean {
  return detail.waiting?.phase === phase.id;
}

export function isWaitingTask(detail: PipelineDetail, task: TaskView): boolean {
  return detail.waiting?.kind === 'human_gate' && detail.waiting.name === `task-${task.id}`;
}

/** A waiting row's label is highlighted, so it stands out among a dozen phases. */
function label(text: string, highlighted: boolean): string | vscode.TreeItemLabel {
  return highlighted ? { label: text, highlights: [[0, text.length]] } : text;
}

export function pipelineItem(node: PipelineNode): vscode.TreeItem {
  const s = node.summary;
  const waiting = s.status === 'awaiting_human' && s.waiting !== null;
  const active = waiting || s.status === 'running';
  const item = new vscode.TreeItem(
    label(s.title, waiting),
    active ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
  );
  item.id = `${node.ledger.folder.uri.toString()}#pipeline:${s.workspace}`;
  item.description = pipelineDescription(s, node.labelOf);
  item.iconPath = waiting
    ? waitingIcon
    : s.status === 'running'
      ? new vscode.ThemeIcon('sync~spin', new vscode.ThemeColor('charts.blue'))
      : s.status === 'completed'
        ? new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'))
        : new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('disabledForeground'));
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown('**').appendText(s.title).appendMarkdown('**\n\n');
  md.appendMarkdown('`')
    .appendText(s.workspace)
    .appendMarkdown('`')
    .appendText(` · effort ${s.effort} (${s.flowTemplate}) · ${s.status.replace('_', ' ')}\n\n`);
  if (s.sourceUrl) md.appendText(`${s.sourceUrl}\n\n`);
  if (waiting && s.presentToUser)
    md.appendMarkdown('$(bell-dot) ')
      .appendText(truncate(s.presentToUser.split('\n').find((l) => l.trim()) ?? '', 200).replace(/^#+\s*/, ''))
      .appendMarkdown('\n\n');
  md.appendMarkdown(`_Updated ${formatAge(s.updatedAt)}_`);
  item.tooltip = md;
  item.contextValue = ['pipeline', s.status, waiting ? 'waiting' : ''].filter(Boolean).join(' ');
  item.accessibilityInformation = { label: `${s.title}, pipeline, ${String(item.description)}` };
  item.command = { command: Commands.OpenPipeline, title: 'Open Pipeline', arguments: [node] };
  return item;
}

export function phaseItem(node: PhaseNode): vscode.TreeItem {
  const { phase: p, detail } = node;
  const waiting = isWaitingPhase(detail, p);
  const hasTasks = p.kind === 'implementation' && detail.tasks.length > 0;
  const item = new vscode.TreeItem(
    label(p.label, waiting),
    hasTasks
      ? p.current
        ? vscode.TreeItemCollapsibleState.Expanded
        : vscode.TreeItemCollapsibleState.Collapsed
      : vscode.TreeItemCollapsibleState.None,
  );
  item.id = `${node.ledger.folder.uri.toString()}#pipeline:${detail.workspace}#phase:${p.id}`;
  const decision = p.kind === 'checkpoint' ? lastDecision(detail.decisions, p.id) : undefined;
  item.description = phaseDescription(p, waiting ? (detail.waiting?.kind ?? null) : null, decision) || undefined;
  item.iconPath = waiting ? waitingIcon : phaseIcon(p);
  item.tooltip = phaseTooltip(node, waiting);
  item.contextValue = ['pipelinePhase', p.status, waiting ? 'waiting' : '', p.artifact?.exists ? 'artifact' : '']
    .filter(Boolean)
    .join(' ');
  item.accessibilityInformation = { label: `${p.label}, ${item.description ?? p.status}` };
  item.command = { command: Commands.OpenPipeline, title: 'Open Pipeline', arguments: [node] };
  return item;
}

export function pipelineTaskItem(node: PipelineTaskNode): vscode.TreeItem {
  const t = node.task;
  const waiting = isWaitingTask(node.parent.detail, t);
  const item = new vscode.TreeItem(label(`Task ${t.id}: ${t.title}`, waiting), vscode.TreeItemCollapsibleState.None);
  item.id = `${node.ledger.folder.uri.toString()}#pipeline:${node.parent.detail.workspace}#task:${t.id}`;
  item.description = pipelineTaskDescription(t, waiting);
  item.iconPath = waiting ? waitingIcon : taskIcon(t);
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown('**')
    .appendText(`Task ${t.id}: ${t.title}`)
    .appendMarkdown('**\n\n')
    .appendText(`${t.mode} · ${t.status}${t.verdict ? ` · ${t.verdict}` : ''}\n\n`);
  for (const f of t.findings)
    md.appendMarkdown(`- **${f.severity}** `).appendText(truncate(f.description, 160)).appendMarkdown('\n');
  if (t.ledgerTaskId)
    md.appendMarkdown('\n\n$(tasklist) ').appendText(
      `${t.ledgerTaskId}: its snapshot and exact files changed are in the Tasks view (click to open)`,
    );
  item.tooltip = md;
  item.contextValue = ['pipelineTask', waiting ? 'waiting' : '', t.ledgerTaskId ? 'ledgerTask' : '']
    .filter(Boolean)
    .join(' ');
  item.command = t.ledgerTaskId
    ? {
        command: Commands.OpenTask,
        title: 'Open Task',
        arguments: [{ folder: node.ledger.root, taskId: t.ledgerTaskId }],
      }
    : { command: Commands.OpenPipeline, title: 'Open Pipeline', arguments: [node] };
  return item;
}

function phaseIcon(p: PhaseView): vscode.ThemeIcon {
  switch (p.status) {
    case 'in_progress':
      return new vscode.ThemeIcon('sync~spin', new vscode.ThemeColor('charts.blue'));
    case 'skipped':
      return new vscode.ThemeIcon('debug-step-over', new vscode.ThemeColor('disabledForeground'));
    case 'pending':
      return new vscode.ThemeIcon(
        p.kind === 'checkpoint' ? 'person' : 'circle-large-outline',
        new vscode.ThemeColor('disabledForeground'),
      );
    case 'completed':
      if (p.verdict === 'APPROVE_WITH_NOTES' || p.verdict === 'PASS_WITH_NOTES')
        return new vscode.ThemeIcon('pass', new vscode.ThemeColor('list.warningForeground'));
      return new vscode.ThemeIcon(
        p.kind === 'checkpoint' ? 'verified' : 'pass',
        new vscode.ThemeColor('testing.iconPassed'),
      );
  }
}

function taskIcon(t: TaskView): vscode.ThemeIcon {
  switch (t.status) {
    case 'passed':
    case 'accepted':
      return new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
    case 'implemented':
      return new vscode.ThemeIcon('eye', new vscode.ThemeColor('charts.blue'));
    case 'revise':
      return new vscode.ThemeIcon('sync', new vscode.ThemeColor('list.warningForeground'));
    case 'failed':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
    case 'skipped':
      return new vscode.ThemeIcon('debug-step-over', new vscode.ThemeColor('disabledForeground'));
    default:
      return new vscode.ThemeIcon(t.mode === 'human' ? 'person' : 'circle-large-outline');
  }
}

function phaseTooltip(node: PhaseNode, waiting: boolean): vscode.MarkdownString {
  const { phase: p, detail } = node;
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown('**')
    .appendText(p.label)
    .appendMarkdown('** — ')
    .appendText(`${p.status.replace('_', ' ')}${p.runs > 1 ? `, ${plural(p.runs, 'run')}` : ''}\n\n`);
  if (waiting && detail.waiting) {
    md.appendMarkdown('$(bell-dot) ')
      .appendText(
        `${checkpointTitle(detail.waiting.name, (id) => detail.phases.find((x) => x.id === id)?.label)} waits for your decision: right-click to approve or reject, or open the pipeline.`,
      )
      .appendMarkdown('\n\n');
  }
  const metrics = metricsText(p);
  if (metrics.length) md.appendText(`${metrics.join(' · ')}\n\n`);
  if (p.verdict) md.appendMarkdown('Verdict: **').appendText(p.verdict).appendMarkdown('**\n\n');
  for (const f of p.findings.slice(0, 12))
    md.appendMarkdown(`- **${f.severity}** `).appendText(truncate(f.description, 160)).appendMarkdown('\n');
  if (p.artifact)
    md.appendMarkdown('\n\n$(file) `')
      .appendText(p.artifact.name)
      .appendMarkdown('`')
      .appendText(p.artifact.exists ? '' : ' (not written yet)');
  return md;
}
