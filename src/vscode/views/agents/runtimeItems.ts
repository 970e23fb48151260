import * as vscode from 'vscode';
import type { PendingHandoff, RunningInstance } from '../../../core/runtime/agentInstances';
import type { ExecutionLog } from '../../../core/runtime/pm/runtimeContracts';
import { formatDuration, formatTokens, formatUsd, truncate } from '../../../core/format';
import { Commands } from '../../commands/commandIds';
import type { FolderLedger } from '../../ledger/folderLedger';
import { escapeMarkdown } from '../markdown';
import { clockTime } from './agentItems';
import type { AgentNode } from './agentItems';

/**
 * The agent runtime in the Agents & Sessions view: the instances running now, the handoffs
 * waiting for an agent, and each agent's execution logs with what they cost.
 */

/** A group at the top of a folder: "Running instances (2)", "Pending handoffs (1)". */
export interface RuntimeGroupNode {
  readonly kind: 'runtimeGroup';
  readonly ledger: FolderLedger;
  readonly group: 'instances' | 'handoffs';
  readonly instances: readonly RunningInstance[];
  readonly handoffs: readonly PendingHandoff[];
}

export interface InstanceNode {
  readonly kind: 'instance';
  readonly ledger: FolderLedger;
  readonly instance: RunningInstance;
  readonly parent: RuntimeGroupNode;
}

export interface HandoffNode {
  readonly kind: 'handoff';
  readonly ledger: FolderLedger;
  readonly handoff: PendingHandoff;
  readonly parent: RuntimeGroupNode;
}

/** "Execution logs" under an agent. */
export interface ExecutionsGroupNode {
  readonly kind: 'executions';
  readonly ledger: FolderLedger;
  readonly agent: string;
  readonly parent: AgentNode;
}

export interface ExecutionNode {
  readonly kind: 'execution';
  readonly ledger: FolderLedger;
  readonly log: ExecutionLog;
  readonly parent: ExecutionsGroupNode;
}

export type RuntimeNode = RuntimeGroupNode | InstanceNode | HandoffNode | ExecutionsGroupNode | ExecutionNode;

export function runtimeGroupItem(node: RuntimeGroupNode): vscode.TreeItem {
  const instances = node.group === 'instances';
  const count = instances ? node.instances.length : node.handoffs.length;
  const item = new vscode.TreeItem(
    `${instances ? 'Running instances' : 'Pending handoffs'} (${count})`,
    vscode.TreeItemCollapsibleState.Expanded,
  );
  item.id = `${node.ledger.folder.uri.toString()}#runtime/${node.group}`;
  item.iconPath = new vscode.ThemeIcon(
    instances ? 'vm-running' : 'arrow-swap',
    instances ? new vscode.ThemeColor('charts.blue') : undefined,
  );
  item.tooltip = instances
    ? 'Agents a runner launched that are running now (agent × project)'
    : 'Handoffs no agent has accepted yet';
  item.contextValue = `runtimeGroup ${node.group}`;
  return item;
}

/** `web · task-5 Login page · since 14:05 · pid 4242`. */
export function instanceDescription(i: RunningInstance, now = new Date()): string {
  const parts = [i.projectName];
  if (i.taskId) parts.push(`${i.taskId}${i.taskTitle ? ` ${truncate(i.taskTitle, 40)}` : ''}`);
  if (i.since) parts.push(`since ${clockTime(i.since, now)}`);
  if (i.pid !== null) parts.push(`pid ${i.pid}`);
  if (!i.stoppableHere && i.host) parts.push(`on ${i.host}`);
  return parts.join(' · ');
}

export function instanceItem(node: InstanceNode): vscode.TreeItem {
  const i = node.instance;
  const item = new vscode.TreeItem(i.agentId, vscode.TreeItemCollapsibleState.None);
  item.id = `${node.ledger.folder.uri.toString()}#instance/${i.agentId}/${i.projectId}`;
  item.description = instanceDescription(i);
  item.iconPath = new vscode.ThemeIcon('sync~spin', new vscode.ThemeColor('charts.blue'));
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(
    `**${escapeMarkdown(i.agentId)}** in project **${escapeMarkdown(i.projectName)}** (\`${i.projectId}\`)${i.client ? ` · ${i.client}` : ''}\n\n`,
  );
  if (i.taskId) md.appendMarkdown(`Task \`${i.taskId}\` ${escapeMarkdown(truncate(i.taskTitle ?? '', 200))}\n\n`);
  md.appendMarkdown(
    `${i.executionId ? `Run \`${i.executionId}\`` : 'Starting'}${i.since ? ` · since ${clockTime(i.since)}` : ''}${i.pid !== null ? ` · pid ${i.pid}` : ''}${i.host ? ` · on ${escapeMarkdown(i.host)}` : ''}\n\n`,
  );
  md.appendMarkdown(
    i.stoppableHere
      ? 'Click to follow its log; Stop Instance ends it.'
      : 'Started by a runner of another machine or folder: stop it there.',
  );
  item.tooltip = md;
  item.accessibilityInformation = {
    label: `${i.agentId} running in ${i.projectName}${i.taskId ? ` on ${i.taskId}` : ''}${i.pid !== null ? `, pid ${i.pid}` : ''}`,
  };
  // package.json: Stop Instance needs `stoppable`.
  item.contextValue = ['instance', ...(i.stoppableHere && i.executionId ? ['stoppable'] : [])].join(' ');
  if (i.executionId)
    item.command = {
      command: Commands.OpenExecutionLog,
      title: 'Open Execution Log',
      arguments: [{ folder: node.ledger.root, executionId: i.executionId }],
    };
  return item;
}

export function handoffItem(node: HandoffNode): vscode.TreeItem {
  const h = node.handoff;
  const item = new vscode.TreeItem(
    `${h.fromAgent} → ${h.toAgent ?? 'any agent'}`,
    vscode.TreeItemCollapsibleState.None,
  );
  item.id = `${node.ledger.folder.uri.toString()}#handoff/${h.handoffId}`;
  item.description = `${h.taskId} ${truncate(h.taskTitle, 40)} · ${truncate(h.summary, 60)} · ${clockTime(h.createdAt)}`;
  item.iconPath = new vscode.ThemeIcon('arrow-swap');
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(
    `**Handoff** \`${h.handoffId}\` from \`${escapeMarkdown(h.fromAgent)}\` to ${h.toAgent ? `\`${escapeMarkdown(h.toAgent)}\`` : 'any agent'}\n\n`,
  );
  md.appendMarkdown(
    `Task \`${h.taskId}\` ${escapeMarkdown(truncate(h.taskTitle, 200))}\n\n${escapeMarkdown(truncate(h.summary, 500))}`,
  );
  item.tooltip = md;
  item.contextValue = 'handoff';
  const taskId = Number(h.taskId.replace(/^task-/, ''));
  item.command = { command: Commands.OpenTask, title: 'Open Task', arguments: [{ folder: node.ledger.root, taskId }] };
  return item;
}

export function executionsGroupItem(node: ExecutionsGroupNode): vscode.TreeItem {
  const item = new vscode.TreeItem('Execution logs', vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `${node.ledger.folder.uri.toString()}#agent/${node.agent}/executions`;
  item.iconPath = new vscode.ThemeIcon('output');
  item.tooltip = `Runs of ${node.agent}, newest first, with what each cost`;
  item.contextValue = 'executions';
  return item;
}

/** `task-5 · completed · exit 0 · $0.0421 · 1.2k tokens in · 14:05`. */
export function executionDescription(e: ExecutionLog, now = new Date()): string {
  const parts = [e.taskId ?? 'no task', e.status];
  if (e.status !== 'running') {
    if (e.exitCode !== null) parts.push(`exit ${e.exitCode}`);
    if (e.signal) parts.push(e.signal);
  }
  if (e.costUsd !== null) parts.push(formatUsd(e.costUsd));
  if (e.inputTokens !== null) parts.push(`${formatTokens(e.inputTokens)} in`);
  if (e.durationSeconds !== null) parts.push(formatDuration(e.durationSeconds));
  parts.push(clockTime(e.startedAt, now));
  return parts.join(' · ');
}

const executionIcons: Record<ExecutionLog['status'], vscode.ThemeIcon> = {
  running: new vscode.ThemeIcon('sync~spin', new vscode.ThemeColor('charts.blue')),
  completed: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  error: new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')),
  // A person stopped it: not a failure.
  stopped: new vscode.ThemeIcon('debug-stop'),
};

export function executionItem(node: ExecutionNode): vscode.TreeItem {
  const e = node.log;
  const item = new vscode.TreeItem(e.executionId, vscode.TreeItemCollapsibleState.None);
  item.id = `${node.ledger.folder.uri.toString()}#execution/${e.executionId}`;
  item.description = executionDescription(e);
  item.iconPath = executionIcons[e.status];
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(
    `**${e.executionId}** of \`${escapeMarkdown(e.agentId)}\`${e.projectId ? ` in \`${e.projectId}\`` : ''} · ${e.status}${e.result ? ` (${e.result})` : ''}\n\n`,
  );
  if (e.taskId) md.appendMarkdown(`Task \`${e.taskId}\`\n\n`);
  const cost = [
    e.costUsd !== null ? formatUsd(e.costUsd) : 'no cost reported',
    ...(e.inputTokens !== null ? [`${formatTokens(e.inputTokens)} in`] : []),
    ...(e.outputTokens !== null ? [`${formatTokens(e.outputTokens)} out`] : []),
  ];
  md.appendMarkdown(`${cost.join(' · ')}\n\n`);
  md.appendMarkdown(
    `Started ${clockTime(e.startedAt)}${e.completedAt ? ` · ended ${clockTime(e.completedAt)}` : ''}${e.durationSeconds !== null ? ` · ${formatDuration(e.durationSeconds)}` : ''}`,
  );
  item.tooltip = md;
  item.accessibilityInformation = {
    label: `Run ${e.executionId} of ${e.agentId}${e.taskId ? ` on ${e.taskId}` : ''}, ${e.status}${e.costUsd !== null ? `, cost ${formatUsd(e.costUsd)}` : ''}`,
  };
  item.contextValue = `execution ${e.status}`;
  item.command = {
    command: Commands.OpenExecutionLog,
    title: 'Open Execution Log',
    arguments: [{ folder: node.ledger.root, executionId: e.executionId }],
  };
  return item;
}
