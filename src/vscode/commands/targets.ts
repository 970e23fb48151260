import * as vscode from 'vscode';
import { LedgerError } from '../../core/errors';
import { parseId, taskKey, workflowKey } from '../../core/ids';
import type { TaskStatus } from '../../core/tasks/taskModel';
import { formatAge, plural } from '../../core/format';
import type { FolderLedger } from '../ledger/folderLedger';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';
import type { TaskNode, WorkflowNode } from '../views/tasks/taskItems';
import { listedWorkflows } from '../../views/taskText';

/**
 * What a task command may be given: a Tasks view node (context menus), a `{ folder, taskId }`
 * (webviews, notifications, tests), or nothing (the palette: the person picks).
 */
export type TaskArg = TaskNode | { folder: string; taskId: number | string; note?: string } | undefined;
export type WorkflowArg =
  WorkflowNode | TaskNode | { folder: string; workflowId?: number | string; taskId?: number | string } | undefined;

export interface ResolvedTask {
  ledger: FolderLedger;
  taskId: number;
}

export async function resolveTask(
  registry: LedgerRegistry,
  arg: TaskArg,
  placeHolder: string,
  statuses?: readonly TaskStatus[],
): Promise<ResolvedTask | undefined> {
  if (arg && 'kind' in arg && arg.kind === 'task') return { ledger: arg.ledger, taskId: arg.task.id };
  if (arg && 'folder' in arg) return { ledger: ledgerAt(registry, arg.folder), taskId: parseId('task', arg.taskId) };
  const ledger = await registry.pick(undefined, 'Which folder?');
  if (!ledger) return undefined;
  const services = await ledger.require();
  const tasks = (await services.queries.listTasks({ limit: 200 })).tasks.filter(
    (t) => !statuses || statuses.includes(t.status),
  );
  if (tasks.length === 0) {
    void vscode.window.showInformationMessage(
      `No ${statuses ? `${statuses.join(' or ').replace('_', ' ')} ` : ''}tasks in ${ledger.name}.`,
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    tasks.map((t) => ({
      label: t.title,
      description: `${taskKey(t.id)} · ${t.status.replace('_', ' ')}`,
      detail: `updated ${formatAge(t.updatedAt)}`,
      id: t.id,
    })),
    { placeHolder, matchOnDescription: true },
  );
  return picked ? { ledger, taskId: picked.id } : undefined;
}

export async function resolveWorkflow(
  registry: LedgerRegistry,
  arg: WorkflowArg,
  placeHolder = 'Export the report of which workflow?',
): Promise<{ ledger: FolderLedger; workflowId: number } | undefined> {
  if (arg && 'kind' in arg && arg.kind === 'workflow') return { ledger: arg.ledger, workflowId: arg.workflow.id };
  if (arg && 'kind' in arg && arg.kind === 'task' && arg.task.workflowId !== null)
    return { ledger: arg.ledger, workflowId: arg.task.workflowId };
  if (arg && 'folder' in arg) {
    const ledger = ledgerAt(registry, arg.folder);
    if (arg.workflowId !== undefined) return { ledger, workflowId: parseId('workflow', arg.workflowId) };
    if (arg.taskId !== undefined) {
      const { task } = await (await ledger.require()).queries.task(arg.taskId);
      if (task.workflowId !== null) return { ledger, workflowId: task.workflowId };
    }
  }
  const ledger = await registry.pick(undefined, 'Which folder?');
  if (!ledger) return undefined;
  // A pipeline's own workflow is the Pipelines view's, as in the Tasks view.
  const workflows = listedWorkflows((await (await ledger.require()).queries.listWorkflows(200)).workflows);
  if (workflows.length === 0) {
    void vscode.window.showInformationMessage(`No workflows in ${ledger.name} yet.`);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    [...workflows]
      .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1))
      .map((w) => ({
        label: w.name,
        description: `${workflowKey(w.id)} · ${plural(w.taskCount, 'task')}`,
        detail: `updated ${formatAge(w.updatedAt)}`,
        id: w.id,
      })),
    { placeHolder, matchOnDescription: true },
  );
  return picked ? { ledger, workflowId: picked.id } : undefined;
}

function ledgerAt(registry: LedgerRegistry, folder: string): FolderLedger {
  const ledger = registry.byPath(folder);
  if (!ledger) throw new LedgerError('NotFound', `${folder} is not a folder of this window's workspace`);
  return ledger;
}
