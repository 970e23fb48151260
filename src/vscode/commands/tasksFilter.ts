import * as vscode from 'vscode';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';
import type { TasksView } from '../views/tasks/tasksView';
import type { TaskFilter } from '../../views/taskText';

type FilterItem = vscode.QuickPickItem & { set: (f: TaskFilter) => void };

/** Filter Tasks…: hide done tasks, keep what needs me, or one agent's (several choices at once). */
export async function pickTasksFilter(registry: LedgerRegistry, view: TasksView): Promise<void> {
  const agents = new Set<string>();
  for (const ledger of registry.all()) {
    const board = await ledger.services?.board.board().catch(() => undefined);
    for (const a of board?.agents ?? []) agents.add(a.name);
  }
  const now = view.filter;
  const items: FilterItem[] = [
    {
      label: 'Hide done',
      description: 'done and cancelled tasks, unless they wait for your review',
      picked: !!now.hideDone,
      set: (f) => (f.hideDone = true),
    },
    {
      label: 'Needs me',
      description: 'a review to answer, a failure, a task assigned to a person',
      picked: !!now.needsMe,
      set: (f) => (f.needsMe = true),
    },
    ...[...agents]
      .sort((a, b) => a.localeCompare(b))
      .map((name): FilterItem => ({
        label: `@${name}`,
        description: 'only its tasks',
        picked: now.agent === name,
        set: (f) => (f.agent ??= name),
      })),
  ];
  const chosen = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    title: 'Filter Tasks',
    placeHolder: 'Show only… (none: every task)',
  });
  if (!chosen) return;
  const filter: TaskFilter = {};
  for (const c of chosen) c.set(filter);
  view.setFilter(filter);
}
