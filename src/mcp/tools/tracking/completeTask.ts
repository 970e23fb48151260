import { completeTaskInput, completeTaskOutput } from '../../../core/tasks/trackingContracts';
import { defineTool } from '../../toolDefinition';

export const completeTaskTool = defineTool({
  name: 'complete_task',
  family: 'tracking',
  title: 'Complete task',
  description:
    "Complete a task and compute its file changes from Git: everything that differs between the task's start snapshot and now (commits made during the task, uncommitted edits and new untracked files, files inside submodules; nothing that was already dirty before), checked against the declared areas. Paths are relative to the workspace folder, which may be a subfolder of the repository (see repositoryRoot and workspacePath).",
  input: completeTaskInput,
  output: completeTaskOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, { services }) => services.tracking.completeTask(args),
});
