import * as vscode from 'vscode';
import type { AgentDefinition, AgentProblem } from '../../../core/agents/agentModel';
import { taskKey } from '../../../core/ids';
import type { AgentActivity, AgentSession } from '../../../core/sessions/agentSessions';
import type { Session } from '../../../core/sessions/sessionRepo';
import { formatDuration, formatUsd, plural, truncate } from '../../../core/format';
import type { AgentCost } from '../../../core/costs/costContracts';
import { Commands } from '../../commands/commandIds';
import type { FolderLedger } from '../../ledger/folderLedger';
import { escapeMarkdown } from '../markdown';
import type { AgentIdleReason } from '../../../core/tasks/taskHolds';
import { waitingWords as idleWords } from '../../../views/taskText';
import { sessionCountText } from '../../../views/agentText';

/** An agent: defined in `.agent-ledger/agents/`, known from its sessions, or both. */
export interface AgentNode {
  readonly kind: 'agent';
  readonly ledger: FolderLedger;
  readonly name: string;
  readonly definition: AgentDefinition | undefined;
  readonly activity: AgentActivity | undefined;
  /** What its runs cost (execution logs); undefined when it never ran under a runner. */
  readonly cost?: { runs: number; costUsd: number };
  /** Why its queued task does not run (held, or the runner's reason), when it does not. */
  readonly idle?: AgentIdleReason;
}

export interface SessionNode {
  readonly kind: 'session';
  readonly ledger: FolderLedger;
  readonly item: AgentSession;
  readonly parent: AgentNode;
}

/** An agent file that cannot be used (invalid YAML, a duplicate name): shown with the reason. */
export interface AgentProblemNode {
  readonly kind: 'agentProblem';
  readonly ledger: FolderLedger;
  readonly problem: AgentProblem;
}

export type AgentsNode = AgentNode | SessionNode | AgentProblemNode;

/** Agents with running sessions first, then by their latest session, then those never used, by name. */
export function agentNodes(
  ledger: FolderLedger,
  definitions: readonly AgentDefinition[],
  activity: readonly AgentActivity[],
  costs: readonly AgentCost[] = [],
  idle: ReadonlyMap<string, AgentIdleReason> = new Map(),
): AgentNode[] {
  const names = [
    ...new Set([...activity.map((a) => a.agent), ...definitions.map((d) => d.name), ...costs.map((c) => c.agent)]),
  ];
  const nodes = names.map((name): AgentNode => ({
    kind: 'agent',
    ledger,
    name,
    definition: definitions.find((d) => d.name === name),
    activity: activity.find((a) => a.agent === name),
    cost: costs.find((c) => c.agent === name),
    idle: idle.get(name),
  }));
  return nodes.sort(
    (a, b) =>
      (b.activity?.running ?? 0) - (a.activity?.running ?? 0) ||
      (b.activity?.lastStartedAt ?? '').localeCompare(a.activity?.lastStartedAt ?? '') ||
      a.name.localeCompare(b.name),
  );
}

/** `claude-code · opus · 1 running, 1 stale · 4 sessions · $0.0521 over 3 runs`; `not defined` when only its sessions remain. */
export function agentDescription(node: Pick<AgentNode, 'definition' | 'activity' | 'cost' | 'idle'>): string {
  const parts: string[] = node.definition
    ? [node.definition.client, ...(node.definition.model ? [node.definition.model] : [])]
    : ['not defined'];
  // Why it is idle, before the counts: the runner's reason was only in its log.
  if (node.idle && !node.activity?.running)
    parts.push(
      node.idle.reason === 'held' ? `${node.idle.taskId} held` : `${node.idle.taskId} ${idleWords(node.idle.reason)}`,
    );
  const counts = sessionCountText(node.activity);
  if (counts) parts.push(counts);
  if (node.activity) parts.push(plural(node.activity.total, 'session'));
  if (node.cost && node.cost.runs > 0)
    parts.push(`${formatUsd(node.cost.costUsd)} over ${plural(node.cost.runs, 'run')}`);
  return parts.join(' · ');
}

export function agentItem(node: AgentNode): vscode.TreeItem {
  const running = node.activity?.running ?? 0;
  const used = node.activity !== undefined || (node.cost?.runs ?? 0) > 0;
  const state = used ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None;
  const item = new vscode.TreeItem(node.name, state);
  // VS Code applies an item's collapsible state only the first time it sees its id: an agent
  // listed before its first session (a leaf) gets another id once it has sessions, so it opens.
  item.id = `${node.ledger.folder.uri.toString()}#agent/${node.name}${used ? '' : '/unused'}`;
  item.description = agentDescription(node);
  item.iconPath = new vscode.ThemeIcon(
    'hubot',
    running > 0
      ? new vscode.ThemeColor('charts.blue')
      : node.definition
        ? undefined
        : new vscode.ThemeColor('disabledForeground'),
  );
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(
    `**${escapeMarkdown(node.name)}**${node.definition?.description ? ` — ${escapeMarkdown(node.definition.description)}` : ''}\n\n`,
  );
  if (node.idle) md.appendMarkdown(`$(watch) ${node.idle.taskId}: ${escapeMarkdown(node.idle.detail)}\n\n`);
  const d = node.definition;
  if (d) {
    md.appendMarkdown(`Client \`${d.client}\`${d.model ? ` · model \`${d.model}\`` : ''}\n\n`);
    for (const [label, globs] of [
      ['Reads', d.scope.read],
      ['Writes', d.scope.write],
      ['Excludes', d.scope.exclude],
    ] as const) {
      md.appendMarkdown(`${label}: ${globs.length ? globs.map((g) => `\`${g}\``).join(' ') : '—'}\n\n`);
    }
    md.appendMarkdown(`\`${d.file}\``);
  } else {
    md.appendMarkdown('No definition in `.agent-ledger/agents/` any more; its sessions remain in the ledger.');
  }
  item.tooltip = md;
  item.contextValue = node.definition ? 'agent' : 'agent undefined';
  return item;
}

/** `14:05` today, `2026-03-01 14:05` on another day (local time): unlike "3 min ago", it never goes stale. */
export function clockTime(iso: string, now = new Date()): string {
  const t = new Date(iso);
  const pad = (n: number): string => String(n).padStart(2, '0');
  const time = `${pad(t.getHours())}:${pad(t.getMinutes())}`;
  const sameDay =
    t.getFullYear() === now.getFullYear() && t.getMonth() === now.getMonth() && t.getDate() === now.getDate();
  return sameDay ? time : `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())} ${time}`;
}

/** `task-5 · running · task-5-s12 · since 14:05`, `task-5 · completed · exit 0 · merged · task-5-s12 · ended 14:20`. */
export function sessionDescription(s: Session, now = new Date()): string {
  const parts = [taskKey(s.taskId), s.status];
  if (s.status !== 'running') {
    if (s.exitCode !== null) parts.push(`exit ${s.exitCode}`);
    if (s.signal) parts.push(s.signal);
    if (s.dodResult) parts.push(s.dodResult);
  }
  if (s.branch) parts.push(s.branch);
  parts.push(s.endedAt ? `ended ${clockTime(s.endedAt, now)}` : `since ${clockTime(s.startedAt, now)}`);
  return parts.join(' · ');
}

const sessionIcons: Record<Session['status'], vscode.ThemeIcon> = {
  running: new vscode.ThemeIcon('sync~spin', new vscode.ThemeColor('charts.blue')),
  completed: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
};

/** A running session whose process this machine cannot see run: no spinner (see sessionLiveness.ts). */
const runningIcons: Record<'stale' | 'elsewhere' | 'unknown', vscode.ThemeIcon> = {
  stale: new vscode.ThemeIcon('debug-disconnect', new vscode.ThemeColor('editorWarning.foreground')),
  elsewhere: new vscode.ThemeIcon('remote', new vscode.ThemeColor('charts.blue')),
  unknown: new vscode.ThemeIcon('circle-large-outline', new vscode.ThemeColor('charts.blue')),
};

const livenessWords: Record<'stale' | 'elsewhere' | 'unknown', string> = {
  stale: 'stale: its process is gone',
  elsewhere: 'on another machine',
  unknown: 'process unknown',
};

export function sessionItem(node: SessionNode): vscode.TreeItem {
  const { session: s, taskTitle, worktreeActive, liveness } = node.item;
  const item = new vscode.TreeItem(taskTitle, vscode.TreeItemCollapsibleState.None);
  const seen = s.status === 'running' && liveness && liveness !== 'alive' ? liveness : null;
  item.id = `${node.ledger.folder.uri.toString()}#session-${s.id}`;
  item.description = seen ? `${livenessWords[seen]} · ${sessionDescription(s)}` : sessionDescription(s);
  item.iconPath = seen ? runningIcons[seen] : sessionIcons[s.status];
  item.tooltip = sessionTooltip(node.item);
  item.accessibilityInformation = {
    label: `Session ${s.id} of ${s.agent} on ${taskKey(s.taskId)} ${taskTitle}, ${seen === 'stale' ? 'stale, its process is gone' : s.status}${s.branch ? `, branch ${s.branch}` : ''}`,
  };
  // Menus in package.json match these words: End Session needs `running`, Open Worktree `worktree`.
  item.contextValue = [
    'session',
    s.status,
    ...(seen === 'stale' ? ['stale'] : []),
    ...(worktreeActive && s.worktree ? ['worktree'] : []),
  ].join(' ');
  item.command = {
    command: Commands.OpenTask,
    title: 'Open Task',
    arguments: [{ folder: node.ledger.root, taskId: s.taskId }],
  };
  return item;
}

function sessionTooltip({ session: s, taskTitle, worktreeActive, liveness }: AgentSession): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(
    `**Session ${s.id}** of \`${escapeMarkdown(s.agent)}\`${s.client ? ` (${s.client})` : ''} · ${s.status}\n\n`,
  );
  md.appendMarkdown(`Task \`${taskKey(s.taskId)}\` ${escapeMarkdown(truncate(taskTitle, 200))}\n\n`);
  if (s.status === 'running' && liveness === 'stale')
    md.appendMarkdown(
      `$(warning) Its process (pid ${s.process.pid ?? '?'}) is gone: nothing works on this session any more. End Session records its end.\n\n`,
    );
  if (s.status === 'running' && liveness === 'elsewhere')
    md.appendMarkdown(
      `$(remote) Runs on ${escapeMarkdown(s.process.machine ?? 'another machine')}, which this machine cannot check: end it only if you know it stopped.\n\n`,
    );
  if (s.branch) md.appendMarkdown(`$(git-branch) \`${s.branch}\`\n\n`);
  if (s.worktree) md.appendMarkdown(`$(folder) \`${s.worktree}\`${worktreeActive ? '' : ' (removed)'}\n\n`);
  md.appendMarkdown(
    `Started ${clockTime(s.startedAt)}${s.endedAt ? ` · ended ${clockTime(s.endedAt)}` : ''}${s.durationSeconds !== null ? ` · ${formatDuration(s.durationSeconds)}` : ''}\n\n`,
  );
  if (s.status !== 'running') {
    const outcome = [
      `exit code ${s.exitCode ?? '—'}`,
      ...(s.signal ? [`signal ${s.signal}`] : []),
      `Definition of Done: ${s.dodResult ?? '—'}`,
    ];
    if (s.endedBy) outcome.push(`ended by ${escapeMarkdown(s.endedBy)}`);
    md.appendMarkdown(`${outcome.join(' · ')}\n\n`);
  }
  if (s.error)
    md.appendMarkdown(
      `$(error) ${s.error.type}${s.error.message ? `: ${escapeMarkdown(truncate(s.error.message, 300))}` : ''}\n\n`,
    );
  if (s.artifacts.length)
    md.appendMarkdown(
      `${plural(s.artifacts.length, 'artifact')}: ${s.artifacts
        .slice(0, 10)
        .map((a) => `\`${a}\``)
        .join(' ')}`,
    );
  return md;
}

export function agentProblemItem(node: AgentProblemNode): vscode.TreeItem {
  const item = new vscode.TreeItem(
    node.problem.file.split('/').pop() ?? node.problem.file,
    vscode.TreeItemCollapsibleState.None,
  );
  item.id = `${node.ledger.folder.uri.toString()}#agent-problem/${node.problem.file}`;
  item.description = truncate(node.problem.message, 100);
  item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  item.tooltip = `${node.problem.file} cannot be used as an agent definition: ${node.problem.message}`;
  item.contextValue = 'agentProblem';
  item.command = {
    command: 'vscode.open',
    title: 'Open File',
    arguments: [vscode.Uri.joinPath(node.ledger.folder.uri, ...node.problem.file.split('/'))],
  };
  return item;
}
