import { z } from 'zod';
import { completionStatuses, testsStatuses } from '../../../core/tasks/taskModel';
import { defineTool } from '../../toolDefinition';
import { commitOutput, fileChangesOutput, repositoryRootOutput, taskIdInput, verificationOutput, workspacePathOutput } from './schemas';

export const completeTaskTool = defineTool({
  name: 'complete_task',
  family: 'tracking',
  title: 'Complete task',
  description:
    "Complete a task and compute its file changes from Git: everything that differs between the task's start snapshot and now (commits made during the task, uncommitted edits and new untracked files, files inside submodules; nothing that was already dirty before), checked against the declared areas. Paths are relative to the workspace folder, which may be a subfolder of the repository (see repositoryRoot and workspacePath).",
  input: z.strictObject({
    task_id: taskIdInput,
    status: z.enum(completionStatuses).describe('How the task ended'),
    outcome: z
      .looseObject({
        summary: z.string().min(1).max(20_000).describe('Summary of what was accomplished (2-4 sentences)'),
        achievements: z.array(z.string().max(2000)).max(100).optional().describe('Concrete achievements (empty array if none)'),
        limitations: z.array(z.string().max(2000)).max(100).optional().describe('Limitations/compromises (empty array if none)'),
        manual_review_needed: z.boolean().optional().describe('Does a human need to review before continuing?'),
        manual_review_reason: z.string().max(5000).optional().describe('Why manual review is needed'),
        next_steps: z.array(z.string().max(2000)).max(100).optional().describe('Suggested next steps (optional)'),
      })
      .describe('What the task achieved'),
    metadata: z
      .looseObject({
        packages_added: z.array(z.string()).optional(),
        packages_removed: z.array(z.string()).optional(),
        commands_executed: z.array(z.string()).optional(),
        tests_status: z.enum(testsStatuses).optional(),
      })
      .optional()
      .describe('Packages, commands and test status of the task'),
  }),
  output: z.object({
    task_id: z.string(),
    status: z.enum(completionStatuses),
    duration_seconds: z.number(),
    files_changed: fileChangesOutput,
    verification: verificationOutput,
    commits: z.array(commitOutput).describe('Commits made during the task, oldest first'),
    counts: z.object({ decisions: z.number(), issues: z.number(), milestones: z.number() }),
    snapshot_id: z.string(),
    end_snapshot_id: z.string(),
    completed_at: z.string(),
    repositoryRoot: repositoryRootOutput,
    workspacePath: workspacePathOutput,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: (args, { services }) => services.tracking.completeTask(args),
});
