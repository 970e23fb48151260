import type { MemoryPreview, MemorySummary } from './memoryContracts';
import { memoryFolder } from '../ledgerFiles';

/**
 * The context given to agents (the task-management contract's memory preview and project://memory): a summary
 * line and a file reference per active entry, entries in category/id order, whole entries
 * only, under `maxChars`.
 */
export function memoryContext(entries: readonly MemorySummary[], maxChars: number): MemoryPreview {
  const active = entries.filter((e) => e.status === 'active');
  if (active.length === 0) return { context: '', entries: 0, omitted: 0 };
  const footer = `Read these files in ${memoryFolder}/ for details.`;
  const summary: string[] = [];
  const files: string[] = [];
  let size = '## Memory Bank Summary\n\n## Project Context (Memory Bank)\n\n'.length + footer.length + 80;
  let included = 0;
  for (const entry of active) {
    const summaryLine = `- ${entry.category}: ${entry.summary ?? entry.title}`;
    const fileLine = `- ${entry.file} - ${entry.title}`;
    const cost = summaryLine.length + fileLine.length + 2;
    if (size + cost > maxChars) break;
    summary.push(summaryLine);
    files.push(fileLine);
    size += cost;
    included++;
  }
  const omitted = active.length - included;
  if (omitted > 0) files.push(`- … ${omitted} more active entr${omitted === 1 ? 'y' : 'ies'} not shown (size budget)`);
  const context = [
    '## Memory Bank Summary',
    ...summary,
    '',
    '## Project Context (Memory Bank)',
    ...files,
    '',
    footer,
  ].join('\n');
  return { context, entries: included, omitted };
}
