/**
 * Every command of the extension, in one place (VS Code git's habit). package.json declares the
 * same ids; registerCommands.ts registers each exactly once through one wrapper.
 */
export const Commands = {
  Refresh: 'agentLedger.refresh',
  OpenTask: 'agentLedger.openTask',
  OpenTaskFileDiff: 'agentLedger.openTaskFileDiff',
  RewindTask: 'agentLedger.rewindTask',
  UndoRewind: 'agentLedger.undoRewind',
  CopyTaskId: 'agentLedger.copyTaskId',
  ExportWorkflowReport: 'agentLedger.exportWorkflowReport',
  ShowRunningTasks: 'agentLedger.showRunningTasks',
  AddToClaudeCode: 'agentLedger.addToClaudeCode',
  AddToCursor: 'agentLedger.addToCursor',
  AddToClaudeDesktop: 'agentLedger.addToClaudeDesktop',
  CopyMcpServerCommand: 'agentLedger.copyMcpServerCommand',
  ShowLog: 'agentLedger.showLog',
  CreateTask: 'agentLedger.createTask',
  EditTask: 'agentLedger.editTask',
  AddMemoryEntry: 'agentLedger.addMemoryEntry',
  ArchiveMemoryEntry: 'agentLedger.archiveMemoryEntry',
  OpenWorktree: 'agentLedger.openWorktree',
  EndSession: 'agentLedger.endSession',
  CleanUpWorktrees: 'agentLedger.cleanUpWorktrees',
  OpenPipeline: 'agentLedger.openPipeline',
  ApprovePipelineCheckpoint: 'agentLedger.approvePipelineCheckpoint',
  RejectPipelineCheckpoint: 'agentLedger.rejectPipelineCheckpoint',
  DecidePipelineCheckpoint: 'agentLedger.decidePipelineCheckpoint',
  OpenPipelineArtifact: 'agentLedger.openPipelineArtifact',
  GetStarted: 'agentLedger.getStarted',
  OpenBoard: 'agentLedger.openBoard',
  OpenPlanGraph: 'agentLedger.openPlanGraph',
  SetDatabasePassword: 'agentLedger.setDatabasePassword',
  StartRunner: 'agentLedger.startRunner',
  StopRunner: 'agentLedger.stopRunner',
  ToggleRunner: 'agentLedger.toggleRunner',
  StopInstance: 'agentLedger.stopInstance',
  ResumeTask: 'agentLedger.resumeTask',
  OpenExecutionLog: 'agentLedger.openExecutionLog',
} as const;

export type CommandId = (typeof Commands)[keyof typeof Commands];
