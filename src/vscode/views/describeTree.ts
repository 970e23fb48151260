import type * as vscode from 'vscode';

/** A tree data provider (every LedgerTreeView answers asynchronously: the ledger is read through the async port). */
interface Tree<T> {
  getChildren(node?: T): T[] | Promise<T[]>;
  getTreeItem(node: T): vscode.TreeItem;
}

/**
 * The rows a tree shows, depth-first, two spaces of indentation per level, `label — description`:
 * what the in-host tests read instead of scraping the workbench. Walks the provider's public
 * methods, so it sees exactly what VS Code is given (folder nodes included).
 */
export async function describeTree<T>(tree: Tree<T>): Promise<string[]> {
  const lines: string[] = [];
  const walk = async (parent: T | undefined, depth: number): Promise<void> => {
    for (const node of await tree.getChildren(parent)) {
      const item = tree.getTreeItem(node);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      lines.push(`${'  '.repeat(depth)}${label}${item.description ? ` — ${String(item.description)}` : ''}`);
      await walk(node, depth + 1);
    }
  };
  await walk(undefined, 0);
  return lines;
}
