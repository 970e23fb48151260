import * as fs from 'node:fs';
import * as path from 'node:path';
import { confinedPath, listConfined, writeFileConfined, writeNewFileConfined } from '../files/confinedPath';
import type { AsyncSqlReader, AsyncSqlWriter, LedgerEngine } from '../ports/store';
import type { Disposable } from '../emitter';
import { LedgerError } from '../errors';
import { notFound, parseId } from '../ids';
import { getTask } from '../tasks/taskRepo';
import type { Clock } from '../time';
import { iso } from '../time';
import { appendEvent } from '../events/eventLog';
import { IndexedFiles } from '../files/indexedFiles';
import { setFrontMatterFields } from '../files/frontMatter';
import type { MemoryEntry, MemoryProblem, MemoryStatus } from './memoryModel';
import { isMemoryName } from './memoryModel';
import { memoryFolder } from '../ledgerFiles';
import { formatMemoryFile, parseMemoryFile } from './memoryFiles';
import { memoryContext } from './memoryPreview';
import type { MemoryListResult, MemoryPreview, MemorySummary } from './memoryContracts';

export interface MemoryFilter {
  category?: string;
  status?: MemoryStatus;
}

export interface NewMemory {
  id: string;
  category: string;
  title: string;
  summary?: string;
  status?: MemoryStatus;
  content?: string;
  /** The task the entry is the work of (its file counts among that task's files: taskFiles.ts). */
  task_id?: string | number;
}

/** Default size budget of the context embedded in prompts and shown by memory_preview. */
export const defaultMemoryBudget = 4000;

/**
 * The Memory Bank of a workspace. Entries are the Markdown files under `.agent-ledger/memory/`,
 * read again whenever they change on disk, so hand edits show up without a restart; the
 * `memories` table indexes them for views and notifications (written by writable processes).
 */
export class MemoryBank extends IndexedFiles<MemoryEntry> {
  constructor(db: LedgerEngine, workspace: string, clock: Clock, options: { readonly: boolean }) {
    super(db, workspace, clock, options, memoryFolder, (text, rel) => {
      const [category, name] = rel.split('/').slice(-2);
      return parseMemoryFile(text, category, name.replace(/\.md$/, ''), rel);
    });
  }

  /** memory_list: entries in category/id order, filtered, without their bodies; files that cannot be read are reported, not fatal. Brings the index up to date. */
  async list(filter: MemoryFilter = {}): Promise<MemoryListResult> {
    const { entries, problems } = this.readFolder();
    await this.syncIndex(entries);
    return { memories: applyFilter(entries, filter).map(memorySummary), problems };
  }

  /** The entries as the files are now, without touching the index (resources, views). */
  current(filter: MemoryFilter = {}): { memories: MemoryEntry[]; problems: MemoryProblem[] } {
    const { entries, problems } = this.readFolder();
    return { memories: applyFilter(entries, filter), problems };
  }

  /** memory_add: writes a new entry file (its id and category checked by the contract); refuses to overwrite an existing one. */
  async add(input: NewMemory): Promise<MemorySummary> {
    const rel = `${memoryFolder}/${input.category}/${input.id}.md`;
    const entry: MemoryEntry = {
      id: input.id,
      category: input.category,
      title: input.title.replace(/\s+/g, ' ').trim(),
      summary: input.summary?.replace(/\s+/g, ' ').trim() || null,
      status: input.status ?? 'active',
      content: input.content ?? '',
      file: rel,
    };
    if (this.options.readonly)
      throw new LedgerError('ConfigError', 'this ledger was opened read-only; memory entries cannot be added');
    const taskId = input.task_id === undefined ? null : parseId('task', input.task_id);
    if (taskId !== null && !(await this.db.read((db) => getTask(db, taskId)))) throw notFound('task', taskId);
    if (!writeNewFileConfined(this.workspace, rel, formatMemoryFile(entry))) {
      throw new LedgerError(
        'InvalidStatus',
        `memory entry ${input.category}/${input.id} already exists (${rel}); edit the file or choose another id`,
        { id: input.id, category: input.category, file: rel },
      );
    }
    const now = iso(this.clock.now());
    await this.db.write(async (tx) => {
      await upsert(tx, entry, now);
      await appendEvent(tx, {
        ts: now,
        kind: 'memory.added',
        taskId,
        entity: 'memory',
        entityId: `${entry.category}/${entry.id}`,
        // The file on the task's event: the task claims it as its work (core/tasks/taskFiles.ts).
        payload: { title: entry.title, status: entry.status, ...(taskId === null ? {} : { file: rel }) },
      });
    });
    return memorySummary(entry);
  }

  /**
   * Changes an entry's status in its file's front matter (the editor's Archive), keeping the rest
   * of the file as written, and brings the index up to date.
   */
  async setStatus(category: string, id: string, status: MemoryStatus): Promise<MemoryEntry> {
    const rel = `${memoryFolder}/${category}/${id}.md`;
    if (!isMemoryName(category) || !isMemoryName(id))
      throw new LedgerError('NotFound', `no memory entry ${category}/${id}`, { category, id });
    if (this.options.readonly)
      throw new LedgerError('ConfigError', 'this ledger was opened read-only; memory entries cannot be changed');
    // A link out is refused (ConfigError naming it) before anything is read.
    const file = confinedPath(this.workspace, rel);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      throw new LedgerError('NotFound', `memory entry ${category}/${id} does not exist (${rel})`, {
        category,
        id,
        file: rel,
      });
    }
    let entry: MemoryEntry;
    let next: string;
    try {
      entry = parseMemoryFile(text, category, id, rel);
      next = setFrontMatterFields(text, { status });
    } catch (err) {
      throw new LedgerError('ConfigError', `${rel} cannot be read as a memory entry: ${(err as Error).message}`, {
        file: rel,
      });
    }
    if (entry.status === status) return entry;
    writeFileConfined(this.workspace, rel, next);
    const updated: MemoryEntry = { ...entry, status };
    const now = iso(this.clock.now());
    await this.db.write(async (tx) => {
      await upsert(tx, updated, now);
      await appendEvent(tx, {
        ts: now,
        kind: 'memory.updated',
        entity: 'memory',
        entityId: `${category}/${id}`,
        payload: { title: updated.title, status, previousStatus: entry.status },
      });
    });
    return updated;
  }

  /** memory_preview: the context agents get, active entries only, under `maxChars`. Brings the index up to date. */
  async preview(maxChars = defaultMemoryBudget): Promise<MemoryPreview> {
    const { memories } = await this.list({ status: 'active' });
    return memoryContext(memories, maxChars);
  }

  /** The preview as the files are now, without touching the index (the project://memory resource). */
  currentPreview(maxChars = defaultMemoryBudget): MemoryPreview {
    return memoryContext(this.current({ status: 'active' }).memories, maxChars);
  }

  /**
   * Calls `onChange` when a file of the bank is added, edited or removed (by anyone),
   * checking every `intervalMs`. Polling a few stats is cheap and works where fs.watch is not.
   */
  watch(onChange: () => void, intervalMs = 1000): Disposable {
    let last = this.signature();
    const timer = setInterval(() => {
      const now = this.signature();
      if (now !== last) {
        last = now;
        onChange();
      }
    }, intervalMs);
    timer.unref();
    return { dispose: () => clearInterval(timer) };
  }

  private signature(): string {
    const parts: string[] = [];
    for (const category of this.entries(memoryFolder).names) {
      for (const name of this.entries(`${memoryFolder}/${category}`).names) {
        try {
          const s = fs.statSync(path.join(this.folder, category, name), { bigint: true });
          parts.push(`${category}/${name}:${s.size}:${s.mtimeNs}`);
        } catch {
          /* removed meanwhile */
        }
      }
    }
    return parts.join('|');
  }

  /**
   * Entries of a folder of the bank that stay inside the workspace: a category folder or an
   * entry linked outside (a cloned repository can carry links) is never read.
   */
  private entries(rel: string, problems?: MemoryProblem[]): { names: string[] } {
    try {
      const listing = listConfined(this.workspace, rel);
      for (const { name, error } of listing.refused) {
        if (!name.startsWith('.')) problems?.push({ file: `${rel}/${name}`, message: `skipped: ${error.message}` });
      }
      return listing;
    } catch (err) {
      // The bank's own folder linked outside: nothing of it is read (the signature sees an empty bank).
      if (problems) throw err;
      return { names: [] };
    }
  }

  private readFolder(): { entries: MemoryEntry[]; problems: MemoryProblem[] } {
    const entries: MemoryEntry[] = [];
    const problems: MemoryProblem[] = [];
    for (const category of this.entries(memoryFolder, problems).names) {
      const dir = path.join(this.folder, category);
      if (category.startsWith('.') || !isDirectory(dir)) continue;
      for (const name of this.entries(`${memoryFolder}/${category}`, problems).names) {
        if (name.startsWith('.') || !name.endsWith('.md')) continue;
        const file = path.join(dir, name);
        const rel = this.relative(file);
        if (!isMemoryName(category) || !isMemoryName(name.slice(0, -3))) {
          problems.push({
            file: rel,
            message: 'category folders and entry ids must be plain names of letters, digits, ".", "_" or "-"',
          });
          continue;
        }
        try {
          const entry = this.cache.get(file);
          if (entry) entries.push(entry);
        } catch (err) {
          problems.push({ file: rel, message: (err as Error).message });
        }
      }
    }
    return { entries, problems };
  }

  private async syncIndex(entries: MemoryEntry[]): Promise<void> {
    if (this.options.readonly) return;
    const wanted = new Map(entries.map((e) => [`${e.category}/${e.id}`, e]));
    if (!(await this.db.read((db) => indexDiffers(db, wanted)))) return;
    const now = iso(this.clock.now());
    await this.db.write(async (tx) => {
      const rows = await indexRows(tx);
      for (const [key, entry] of wanted) {
        if (rows.get(key) === fingerprint(entry)) continue;
        await upsert(tx, entry, now);
        await appendEvent(tx, {
          ts: now,
          kind: 'memory.indexed',
          entity: 'memory',
          entityId: key,
          payload: { title: entry.title, status: entry.status },
        });
      }
      for (const key of rows.keys()) {
        if (wanted.has(key)) continue;
        const [category, id] = key.split('/');
        await tx.run('DELETE FROM memories WHERE category = ? AND id = ?', [category, id]);
        await appendEvent(tx, { ts: now, kind: 'memory.removed', entity: 'memory', entityId: key });
      }
    });
  }
}

function applyFilter(entries: MemoryEntry[], filter: MemoryFilter): MemoryEntry[] {
  return entries.filter(
    (e) => (!filter.category || e.category === filter.category) && (!filter.status || e.status === filter.status),
  );
}

function fingerprint(e: Pick<MemoryEntry, 'file' | 'title' | 'summary' | 'status'>): string {
  return JSON.stringify([e.file, e.title, e.summary, e.status]);
}

async function indexRows(db: AsyncSqlReader): Promise<Map<string, string>> {
  const rows = await db.all<{
    category: string;
    id: string;
    file: string;
    title: string;
    summary: string | null;
    status: string;
  }>('SELECT category, id, file, title, summary, status FROM memories');
  return new Map(rows.map((r) => [`${r.category}/${r.id}`, fingerprint({ ...r, status: r.status as MemoryStatus })]));
}

async function indexDiffers(db: AsyncSqlReader, wanted: Map<string, MemoryEntry>): Promise<boolean> {
  const rows = await indexRows(db);
  return rows.size !== wanted.size || [...wanted].some(([key, entry]) => rows.get(key) !== fingerprint(entry));
}

async function upsert(tx: AsyncSqlWriter, e: MemoryEntry, now: string): Promise<void> {
  await tx.run(
    `INSERT INTO memories (category, id, file, title, summary, status, indexed_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(category, id) DO UPDATE SET file = excluded.file, title = excluded.title, summary = excluded.summary, status = excluded.status, indexed_at = excluded.indexed_at`,
    [e.category, e.id, e.file, e.title, e.summary, e.status, now],
  );
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function memorySummary(e: MemoryEntry): MemorySummary {
  return { id: e.id, category: e.category, title: e.title, summary: e.summary, status: e.status, file: e.file };
}
