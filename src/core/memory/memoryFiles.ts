import { formatFrontMatter, parseFrontMatter, stringField } from '../files/frontMatter';
import type { MemoryEntry, MemoryStatus } from './memoryModel';
import { memoryStatuses } from './memoryModel';

/**
 * Reads one entry. Lenient with hand-written files: without a title the first `# heading`
 * (or the id) is used, without a status the entry is active. Throws when the front matter
 * is not valid YAML or a field has the wrong type.
 */
export function parseMemoryFile(text: string, category: string, id: string, file: string): MemoryEntry {
  const { data, body } = parseFrontMatter(text);
  const status = stringField(data, 'status') ?? 'active';
  if (!(memoryStatuses as readonly string[]).includes(status))
    throw new Error(`"status" must be one of ${memoryStatuses.join(', ')} (got "${status}")`);
  const heading = /^#\s+(.+)$/m.exec(body)?.[1]?.trim();
  return {
    id,
    category,
    title: oneLine(stringField(data, 'title') ?? heading ?? id),
    summary: nullIfEmpty(stringField(data, 'summary')),
    status: status as MemoryStatus,
    content: body,
    file,
  };
}

export function formatMemoryFile(entry: Pick<MemoryEntry, 'title' | 'summary' | 'status' | 'content'>): string {
  return formatFrontMatter({ title: entry.title, summary: entry.summary, status: entry.status }, entry.content);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function nullIfEmpty(text: string | undefined): string | null {
  const t = text === undefined ? '' : oneLine(text);
  return t === '' ? null : t;
}
