import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MemoryEntry, MemoryProblem, MemoryStatus } from '../../../core/memory/memoryModel';
import { plural, truncate } from '../../../core/format';
import type { FolderLedger } from '../../ledger/folderLedger';
import { escapeMarkdown } from '../markdown';

export interface MemoryCategoryNode {
  readonly kind: 'category';
  readonly ledger: FolderLedger;
  readonly category: string;
  readonly entries: readonly MemoryEntry[];
  readonly problems: readonly MemoryProblem[];
}

export interface MemoryEntryNode {
  readonly kind: 'entry';
  readonly ledger: FolderLedger;
  readonly entry: MemoryEntry;
  readonly parent: MemoryCategoryNode;
}

/** A file of the bank that cannot be read as an entry (broken front matter, a bad name): shown, not hidden. */
export interface MemoryProblemNode {
  readonly kind: 'problem';
  readonly ledger: FolderLedger;
  readonly problem: MemoryProblem;
  readonly parent: MemoryCategoryNode;
}

export type MemoryNode = MemoryCategoryNode | MemoryEntryNode | MemoryProblemNode;

/** Entries and problems grouped by their category folder, in the bank's (alphabetical) order. */
export function categoryNodes(
  ledger: FolderLedger,
  entries: readonly MemoryEntry[],
  problems: readonly MemoryProblem[],
): MemoryCategoryNode[] {
  const names = [...new Set([...entries.map((e) => e.category), ...problems.map(problemCategory)])].sort();
  return names.map((category) => ({
    kind: 'category',
    ledger,
    category,
    entries: entries.filter((e) => e.category === category),
    problems: problems.filter((p) => problemCategory(p) === category),
  }));
}

/** `.agent-ledger/memory/<category>/<file>` → `<category>`. */
function problemCategory(p: MemoryProblem): string {
  return p.file.split('/').slice(-2)[0];
}

export function entryFile(node: MemoryEntryNode | MemoryProblemNode): vscode.Uri {
  const rel = node.kind === 'entry' ? node.entry.file : node.problem.file;
  return vscode.Uri.joinPath(node.ledger.folder.uri, ...rel.split('/'));
}

const statusIcons: Record<MemoryStatus, vscode.ThemeIcon> = {
  active: new vscode.ThemeIcon('book', new vscode.ThemeColor('charts.green')),
  draft: new vscode.ThemeIcon('edit', new vscode.ThemeColor('charts.yellow')),
  archived: new vscode.ThemeIcon('archive', new vscode.ThemeColor('disabledForeground')),
};

/** `Vitest: fast` for an active entry; drafts and archived ones say so first (agents do not get them). */
export function entryDescription(entry: Pick<MemoryEntry, 'status' | 'summary'>): string {
  const summary = entry.summary ? truncate(entry.summary, 80) : '';
  if (entry.status === 'active') return summary;
  return summary ? `${entry.status} · ${summary}` : entry.status;
}

export function categoryItem(node: MemoryCategoryNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.category, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `${node.ledger.folder.uri.toString()}#memory/${node.category}`;
  const active = node.entries.filter((e) => e.status === 'active').length;
  const parts = [plural(node.entries.length, 'entry', 'entries')];
  if (active !== node.entries.length) parts.push(`${active} active`);
  if (node.problems.length) parts.push(`${node.problems.length} unreadable`);
  item.description = parts.join(' · ');
  item.iconPath = new vscode.ThemeIcon('folder-library');
  item.tooltip = `.agent-ledger/memory/${node.category}/`;
  item.contextValue = 'memoryCategory';
  return item;
}

export function entryItem(node: MemoryEntryNode): vscode.TreeItem {
  const { entry } = node;
  const item = new vscode.TreeItem(entry.title, vscode.TreeItemCollapsibleState.None);
  item.id = `${node.ledger.folder.uri.toString()}#memory/${entry.category}/${entry.id}`;
  item.description = entryDescription(entry);
  item.iconPath = statusIcons[entry.status];
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${escapeMarkdown(entry.title)}** — \`${entry.category}/${entry.id}\` · ${entry.status}\n\n`);
  if (entry.summary) md.appendMarkdown(`${escapeMarkdown(entry.summary)}\n\n`);
  md.appendMarkdown(
    entry.status === 'active'
      ? '$(check) Given to agents (memory_preview, worker prompts)\n\n'
      : `$(circle-slash) Not given to agents while ${entry.status}\n\n`,
  );
  md.appendMarkdown(`\`${entry.file}\``);
  item.tooltip = md;
  item.accessibilityInformation = {
    label: `${entry.title}, ${entry.status} memory entry in ${entry.category}${entry.summary ? `: ${entry.summary}` : ''}`,
  };
  // Menus in package.json match these words (`viewItem =~ /^memoryEntry\b/`).
  item.contextValue = `memoryEntry ${entry.status}`;
  item.command = { command: 'vscode.open', title: 'Open Entry', arguments: [entryFile(node)] };
  return item;
}

export function problemItem(node: MemoryProblemNode): vscode.TreeItem {
  const item = new vscode.TreeItem(path.posix.basename(node.problem.file), vscode.TreeItemCollapsibleState.None);
  item.id = `${node.ledger.folder.uri.toString()}#memory-problem/${node.problem.file}`;
  item.description = truncate(node.problem.message, 100);
  item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  item.tooltip = `${node.problem.file} cannot be read as a Memory Bank entry: ${node.problem.message}`;
  item.contextValue = 'memoryProblem';
  item.command = { command: 'vscode.open', title: 'Open File', arguments: [entryFile(node)] };
  return item;
}
