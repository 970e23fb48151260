import type { Services } from '../app/services';
import type { MemoryModel } from '../shared/protocol';

/** The Memory Bank as its files are now (`.agent-ledger/memory/<category>/<id>.md`), without bodies. */
export function memoryModel(services: Services, folder: { name: string; root: string }): MemoryModel {
  const { memories, problems } = services.memory.current();
  return {
    folder: folder.root,
    folderName: folder.name,
    entries: memories.map((m) => ({
      key: `${m.category}/${m.id}`,
      category: m.category,
      id: m.id,
      title: m.title,
      summary: m.summary,
      status: m.status,
      file: m.file,
    })),
    problems,
  };
}

/** One entry's Markdown body, by `<category>/<id>` (only an entry the folder holds). */
export function memoryEntryText(services: Services, key: string): string | null {
  const entry = services.memory.current().memories.find((m) => `${m.category}/${m.id}` === key);
  return entry ? entry.content : null;
}
