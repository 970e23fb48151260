import * as vscode from 'vscode';
import type { BlackboardEntry } from '../../../core/coordination/blackboard/blackboardRules';
import { namespaceOf } from '../../../core/coordination/blackboard/blackboardRules';
import { plural, truncate } from '../../../core/format';
import type { FolderLedger } from '../../ledger/folderLedger';

export interface NamespaceNode {
  readonly kind: 'namespace';
  readonly ledger: FolderLedger;
  readonly namespace: string;
  readonly entries: readonly BlackboardEntry[];
}

export interface EntryNode {
  readonly kind: 'entry';
  readonly ledger: FolderLedger;
  readonly entry: BlackboardEntry;
  readonly parent: NamespaceNode;
}

/** One fact of an entry: its value, tags, expiry, version. */
export interface FactNode {
  readonly kind: 'fact';
  readonly ledger: FolderLedger;
  readonly label: string;
  readonly text: string;
  readonly parent: EntryNode;
}

export type BlackboardNode = NamespaceNode | EntryNode | FactNode;

/** Entries grouped by namespace (the key's text before the first ":", "/" or "|"), namespaces and keys in order. */
export function namespaceNodes(ledger: FolderLedger, entries: readonly BlackboardEntry[]): NamespaceNode[] {
  const groups = new Map<string, BlackboardEntry[]>();
  for (const e of entries) {
    const ns = namespaceOf(e.key);
    groups.set(ns, [...(groups.get(ns) ?? []), e]);
  }
  return [...groups]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([namespace, list]) => ({
      kind: 'namespace',
      ledger,
      namespace,
      entries: list.sort((a, b) => a.key.localeCompare(b.key)),
    }));
}

/** "in 4m 10s", "in 2h", for an expiry ahead. */
export function expiresIn(expiresAt: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((expiresAt - now) / 1000));
  if (s < 60) return `in ${s}s`;
  if (s < 3600) return `in ${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `in ${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export function valueText(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
}

/** A moment in the person's own time zone (`14:05:09`, another day `2026-03-01 14:05:09`): raw UTC read as a riddle. */
export function localTime(ms: number, now = Date.now()): string {
  const t = new Date(ms);
  const n = new Date(now);
  const pad = (v: number): string => String(v).padStart(2, '0');
  const time = `${pad(t.getHours())}:${pad(t.getMinutes())}:${pad(t.getSeconds())}`;
  const sameDay = t.getFullYear() === n.getFullYear() && t.getMonth() === n.getMonth() && t.getDate() === n.getDate();
  return sameDay ? time : `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())} ${time}`;
}

export function entryFacts(node: EntryNode, now = Date.now()): FactNode[] {
  const { entry } = node;
  const facts: [string, string][] = [
    ['value', truncate(valueText(entry.value), 200)],
    [
      'expires',
      entry.expires_at === null ? 'never' : `${localTime(entry.expires_at, now)} (${expiresIn(entry.expires_at, now)})`,
    ],
    ['version', String(entry.version)],
    ['updated', localTime(entry.updated_at, now)],
  ];
  if (entry.tags.length) facts.splice(1, 0, ['tags', entry.tags.join(', ')]);
  return facts.map(([label, text]) => ({ kind: 'fact', ledger: node.ledger, label, text, parent: node }));
}

export function namespaceItem(node: NamespaceNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.namespace, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `bb-ns:${node.ledger.root}:${node.namespace}`;
  item.description = plural(node.entries.length, 'key');
  item.iconPath = new vscode.ThemeIcon('symbol-namespace');
  item.contextValue = 'blackboardNamespace';
  return item;
}

export function entryItem(node: EntryNode, now = Date.now()): vscode.TreeItem {
  const { entry } = node;
  const item = new vscode.TreeItem(entry.key, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `bb-key:${node.ledger.root}:${entry.key}`;
  item.description = `${truncate(valueText(entry.value), 60)}${entry.expires_at === null ? '' : ` · expires ${expiresIn(entry.expires_at, now)}`}`;
  item.tooltip = new vscode.MarkdownString().appendCodeblock(JSON.stringify(entry.value, null, 2) ?? '', 'json');
  item.iconPath = new vscode.ThemeIcon(entry.expires_at === null ? 'symbol-key' : 'watch');
  item.contextValue = 'blackboardEntry';
  return item;
}

export function factItem(node: FactNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
  item.id = `bb-fact:${node.ledger.root}:${node.parent.entry.key}:${node.label}`;
  item.description = node.text;
  item.tooltip = node.text;
  return item;
}
