import type { MemoryBank, MemoryFilter, NewMemory } from './memoryBank';
import type { MemoryEntry, MemoryProblem } from './memoryModel';
import type { MemoryPreview } from './memoryPreview';
import { defaultMemoryBudget } from './memoryBank';

/** memory_list's row: seed 002's fields plus the file (the body stays in the file). */
export type MemorySummary = Omit<MemoryEntry, 'content'>;

export function memorySummary(e: MemoryEntry): MemorySummary {
  return { id: e.id, category: e.category, title: e.title, summary: e.summary, status: e.status, file: e.file };
}

/** memory_list (MCP) and `memory list --json` (CLI). */
export async function memoryListResult(bank: MemoryBank, filter: MemoryFilter): Promise<{ memories: MemorySummary[]; problems: MemoryProblem[] }> {
  const { memories, problems } = await bank.list(filter);
  return { memories: memories.map(memorySummary), problems };
}

/** memory_add (MCP) and `memory add --json` (CLI). */
export async function memoryAddResult(bank: MemoryBank, input: NewMemory): Promise<MemorySummary> {
  return memorySummary(await bank.add(input));
}

/** memory_preview (MCP) and `memory preview --json` (CLI). */
export function memoryPreviewResult(bank: MemoryBank, input: { maxChars?: number }): Promise<MemoryPreview> {
  return bank.preview(input.maxChars ?? defaultMemoryBudget);
}
