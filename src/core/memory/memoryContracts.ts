import { z } from 'zod';
import { memoryNamePattern, memoryStatuses } from './memoryModel';

/** Inputs of seed 002's Memory Bank tools (MCP and CLI). */

const plainName = (what: string) =>
  z
    .string()
    .regex(memoryNamePattern, `must be a plain name of letters, digits, ".", "_" or "-" (it becomes part of the file path)`)
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
  summary: z.string().max(1000).optional().describe('One line given to every agent (e.g. "Vitest: fast, Vite compatible")'),
  status: z.enum(memoryStatuses).default('active').describe('draft and archived entries are listed but not given to agents'),
  content: z.string().max(100_000).optional().describe('Markdown body: the decision, its reasons, alternatives'),
});

export const memoryPreviewInput = z.strictObject({
  maxChars: z.number().int().min(200).max(100_000).optional().describe('Size budget of the context in characters (default 4000)'),
});
