import type * as vscode from 'vscode';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';
import type { McpCommands } from '../mcp/mcpCommands';
import type { TasksView } from '../views/tasks/tasksView';
import { Commands } from './commandIds';
import type { CommandId } from './commandIds';
import { registerCommand } from './commandRegistry';
import type { CommandHandler } from './commandRegistry';
import type { TaskCommands } from './taskCommands';

export interface CommandDeps {
  registry: LedgerRegistry;
  tasks: TaskCommands;
  mcp: McpCommands;
  tasksView: TasksView;
  log: vscode.LogOutputChannel;
}

/**
 * Registers every command, in one place, through one wrapper. The `Record<CommandId, …>` makes
 * the compiler insist that each id of commandIds.ts has exactly one handler.
 */
export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const { registry, tasks, mcp, tasksView, log } = deps;
  const handlers: Record<CommandId, CommandHandler> = {
    [Commands.Refresh]: () => {
      registry.openExisting(true);
      tasksView.refresh();
    },
    [Commands.OpenTask]: (arg) => tasks.openTask(arg),
    [Commands.OpenTaskFileDiff]: (arg) => tasks.openFileDiff(arg),
    [Commands.RewindTask]: (arg) => tasks.rewind(arg),
    [Commands.UndoRewind]: (arg) => tasks.undoRewind(arg),
    [Commands.CopyTaskId]: (arg) => tasks.copyTaskId(arg),
    [Commands.ExportWorkflowReport]: (arg) => tasks.exportWorkflowReport(arg),
    [Commands.ShowRunningTasks]: () => tasks.showRunningTasks(),
    [Commands.AddToClaudeCode]: (folder) => mcp.addTo('claudeCode', folder),
    [Commands.AddToCursor]: (folder) => mcp.addTo('cursor', folder),
    [Commands.AddToClaudeDesktop]: (folder) => mcp.addTo('claudeDesktop', folder),
    [Commands.CopyMcpServerCommand]: (folder) => mcp.copyCommand(folder),
    [Commands.ShowLog]: () => log.show(),
  };
  return (Object.entries(handlers) as [CommandId, CommandHandler][]).map(([id, handler]) => registerCommand(id, handler, log));
}
