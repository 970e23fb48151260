import { z } from 'zod';

/** Output pieces shared by the tracking tools. */

// Numbers too: a task created by task_create (seed 002) has the numeric id 12 (one resolver, every shape).
export const taskIdInput = z.union([z.string().min(1).max(100), z.number().int().positive()]).describe('Task ID returned by start_task (e.g. "task-12"; 12 works too)');

export const fileChangesOutput = z.object({
  added: z.array(z.string()).describe('Files that did not exist at start_task (paths relative to the workspace folder; files inside a submodule under its path)'),
  modified: z.array(z.string()).describe('Files whose content or mode changed'),
  deleted: z.array(z.string()).describe('Files that existed at start_task and are gone'),
  renamed: z.array(z.object({ from: z.string(), to: z.string() })).describe('Files moved (content mostly kept)'),
});

export const verificationOutput = z.object({
  scope_match: z.boolean().describe('True when every changed file lies in the areas declared at start_task'),
  unexpected_files: z.array(z.string()).describe('Changed files outside the declared areas'),
  warnings: z.array(z.string()),
});

export const commitOutput = z.object({
  sha: z.string(),
  subject: z.string(),
  author: z.string(),
  date: z.string(),
});

export const repositoryRootOutput = z
  .string()
  .nullable()
  .describe("The Git repository's top level the changes were measured in (a worker's worktree for a task run there); null outside Git");

export const workspacePathOutput = z
  .string()
  .describe('The workspace folder inside repositoryRoot that every path is relative to ("" when the workspace is the top level, e.g. "packages/app" in a monorepo)');
