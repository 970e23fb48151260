import { z } from 'zod';
import { fileProblemOutput, taskRef } from '../contracts/common';
import { memoryNamePattern, memoryStatuses } from './memoryModel';

/** memory_list, memory_add and memory_preview (the task-management contract's Memory Bank). */

const plainName = (what: string) =>
  z
    .string()
    .regex(
      memoryNamePattern,
      `must be a plain name of letters, digits, ".", "_" or "-" (it becomes part of the file path)`,
    )
    .refine((v) => !v.includes('..'), 'must not contain ".."')
    .describe(what);

export const memoryListInput = z.strictObject({
  category: z.string().min(1).max(100).optional().describe('Only entries of this category (e.g. "tooling")'),
  status: z.enum(memoryStatuses).optional().describe('Only entries with this status'),
});

export const memoryAddInput = z.strictObject({
  id: plainName('Entry id, the file name without .md (e.g. "test-framework")'),
  category: plainName('Category, the folder (e.g. "tooling", "architecture", "rule")'),
  title: z.string().trim().min(1).max(300).describe('Short title (e.g. "Test framework")'),
  summary: z
    .string()
    .max(1000)
    .optional()
    .describe('One line given to every agent (e.g. "Vitest: fast, Vite compatible")'),
  status: z
    .enum(memoryStatuses)
    .default('active')
    .describe('draft and archived entries are listed but not given to agents'),
  content: z.string().max(100_000).optional().describe('Markdown body: the decision, its reasons, alternatives'),
  task_id: taskRef
    .optional()
    .describe(
      "The task this entry is the work of (e.g. 5): its file then counts among that task's changed files; without it the entry is the ledger's own file and no task lists it",
    ),
});

export const memoryPreviewInput = z.strictObject({
  maxChars: z
    .number()
    .int()
    .min(200)
    .max(100_000)
    .optional()
    .describe('Size budget of the context in characters (default 4000)'),
});

/** memory_list's row: the task-management contract's fields plus the file (the body stays in the file). */
export const memoryOutput = z.object({
  id: z.string(),
  category: z.string(),
  title: z.string(),
  summary: z.string().nullable(),
  status: z.enum(memoryStatuses),
  file: z.string().describe('Workspace-relative path of the entry'),
});

export const memoryListOutput = z.object({ memories: z.array(memoryOutput), problems: z.array(fileProblemOutput) });

export const memoryPreviewOutput = z.object({
  context: z.string().describe('Markdown given to workers ("" when no entry is active)'),
  entries: z.number().describe('Active entries in the context'),
  omitted: z.number().describe('Active entries left out by the size budget'),
});

export type MemoryListInput = z.infer<typeof memoryListInput>;
export type MemoryAddInput = z.infer<typeof memoryAddInput>;
export type MemorySummary = z.infer<typeof memoryOutput>;
export type MemoryListResult = z.infer<typeof memoryListOutput>;
export type MemoryPreview = z.infer<typeof memoryPreviewOutput>;
