import * as vscode from 'vscode';
import { getStartedWalkthrough } from '../constants';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';
import type { McpCommands } from '../mcp/mcpCommands';
import type { TasksView } from '../views/tasks/tasksView';
import type { MemoryView } from '../views/memory/memoryView';
import type { AgentsView } from '../views/agents/agentsView';
import type { PipelinesView } from '../views/pipelines/pipelinesView';
import { Commands } from './commandIds';
import type { CommandId } from './commandIds';
import { registerCommand } from './commandRegistry';
import type { CommandHandler } from './commandRegistry';
import type { TaskCommands } from './taskCommands';
import type { TaskFormCommands } from './taskFormCommands';
import type { MemoryCommands } from './memoryCommands';
import type { SessionCommands } from './sessionCommands';
import type { PipelineCommands } from './pipelineCommands';
import type { BoardCommands } from './boardCommands';
import type { DatabaseCommands } from './databaseCommands';
import type { BlackboardView } from '../views/blackboard/blackboardView';
import type { RunnerCommands } from './runnerCommands';
import { pickTasksFilter } from './tasksFilter';

export interface CommandDeps {
  registry: LedgerRegistry;
  tasks: TaskCommands;
  mcp: McpCommands;
  tasksView: TasksView;
  taskForms: TaskFormCommands;
  memory: MemoryCommands;
  sessions: SessionCommands;
  memoryView: MemoryView;
  agentsView: AgentsView;
  pipelines: PipelineCommands;
  pipelinesView: PipelinesView;
  board: BoardCommands;
  blackboardView: BlackboardView;
  database: DatabaseCommands;
  runner: RunnerCommands;
  log: vscode.LogOutputChannel;
}

/**
 * Registers every command, in one place, through one wrapper. The `Record<CommandId, …>` makes
 * the compiler insist that each id of commandIds.ts has exactly one handler.
 */
export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const { registry, tasks, mcp, tasksView, log } = deps;
  const { taskForms, memory, sessions, memoryView, agentsView } = deps;
  const { pipelines, pipelinesView, board, blackboardView, runner } = deps;
  const handlers: Record<CommandId, CommandHandler> = {
    [Commands.Refresh]: () => {
      registry.openExisting(true);
      tasksView.refresh();
      memoryView.refresh();
      agentsView.refresh();
      pipelinesView.refresh();
      blackboardView.reload();
    },
    [Commands.FilterTasks]: () => pickTasksFilter(registry, tasksView),
    [Commands.ClearTasksFilter]: () => tasksView.setFilter({}),
    [Commands.OpenTask]: (arg) => tasks.openTask(arg),
    [Commands.OpenTaskFileDiff]: (arg) => tasks.openFileDiff(arg),
    [Commands.RewindTask]: (arg) => tasks.rewind(arg),
    [Commands.UndoRewind]: (arg) => tasks.undoRewind(arg),
    [Commands.ResumeTask]: (arg) => tasks.resume(arg),
    [Commands.ApproveReview]: (arg) => tasks.review(arg, 'approved'),
    [Commands.DismissReview]: (arg) => tasks.review(arg, 'dismissed'),
    [Commands.CopyTaskId]: (arg) => tasks.copyTaskId(arg),
    [Commands.ExportWorkflowReport]: (arg) => tasks.exportWorkflowReport(arg),
    [Commands.ShowRunningTasks]: () => tasks.showRunningTasks(),
    [Commands.AddToClaudeCode]: (folder) => mcp.addTo('claudeCode', folder),
    [Commands.AddToCursor]: (folder) => mcp.addTo('cursor', folder),
    [Commands.AddToClaudeDesktop]: (folder) => mcp.addTo('claudeDesktop', folder),
    [Commands.CopyMcpServerCommand]: (folder) => mcp.copyCommand(folder),
    [Commands.ShowLog]: () => log.show(),
    [Commands.CreateTask]: (arg) => taskForms.createTask(arg),
    [Commands.EditTask]: (arg) => taskForms.editTask(arg),
    [Commands.AddMemoryEntry]: (arg) => memory.addEntry(arg),
    [Commands.ArchiveMemoryEntry]: (arg) => memory.archiveEntry(arg),
    [Commands.OpenWorktree]: (arg) => sessions.openWorktree(arg),
    [Commands.EndSession]: (arg) => sessions.endSession(arg),
    [Commands.CleanUpWorktrees]: (arg) => sessions.cleanUpWorktrees(arg),
    [Commands.OpenPipeline]: (arg) => pipelines.open(arg),
    [Commands.ApprovePipelineCheckpoint]: (arg) => pipelines.approve(arg),
    [Commands.RejectPipelineCheckpoint]: (arg) => pipelines.reject(arg),
    [Commands.DecidePipelineCheckpoint]: (arg) => pipelines.decide(arg),
    [Commands.OpenPipelineArtifact]: (arg) => pipelines.openArtifact(arg),
    [Commands.OpenBoard]: (arg) => board.openBoard(arg),
    [Commands.OpenPlanGraph]: (arg) => board.openPlanGraph(arg),
    [Commands.SetDatabasePassword]: (arg) => deps.database.setPassword(arg),
    [Commands.StartRunner]: (arg) => runner.start(arg),
    [Commands.StopRunner]: (arg) => runner.stop(arg),
    [Commands.ToggleRunner]: () => runner.toggle(),
    [Commands.StopInstance]: (arg) => runner.stopInstance(arg),
    [Commands.OpenExecutionLog]: (arg) => runner.openExecutionLog(arg),
    [Commands.GetStarted]: () =>
      vscode.commands.executeCommand('workbench.action.openWalkthrough', getStartedWalkthrough, false),
  };
  return (Object.entries(handlers) as [CommandId, CommandHandler][]).map(([id, handler]) =>
    registerCommand(id, handler, log),
  );
}
