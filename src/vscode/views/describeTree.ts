import type * as vscode from 'vscode';

/** A tree data provider that answers synchronously, as every LedgerTreeView does. */
interface SyncTree<T> {
  getChildren(node?: T): T[];
  getTreeItem(node: T): vscode.TreeItem;
}

/**
 * The rows a tree shows, depth-first, two spaces of indentation per level, `label — description`:
 * what the in-host tests read instead of scraping the workbench. Walks the provider's public
 * methods, so it sees exactly what VS Code is given (folder nodes included).
 */
export function describeTree<T>(tree: SyncTree<T>): string[] {
  const lines: string[] = [];
  const walk = (parent: T | undefined, depth: number): void => {
    for (const node of tree.getChildren(parent)) {
      const item = tree.getTreeItem(node);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      lines.push(`${'  '.repeat(depth)}${label}${item.description ? ` — ${String(item.description)}` : ''}`);
      walk(node, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}
