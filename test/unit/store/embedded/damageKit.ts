// Shared by the damage tests: a store with known acknowledged writes, and ways to damage its files.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LedgerStore } from '../../../../src/store/embedded/ledgerStore';
import type { StoreOptions } from '../../../../src/store/embedded/storeWrites';
import { storePaths } from '../../../../src/store/embedded/storePaths';

/** One acknowledged write: the workflow it inserted, its id and the journal seq it got. */
export interface Acked {
  name: string;
  id: number;
  seq: number;
}

/** Opens a store at `dbPath`, inserts `count` workflows one write each, closes it; returns what was acknowledged. */
export async function writeWorkflows(
  dbPath: string,
  count: number,
  options: Partial<StoreOptions> = {},
  prefix = 'w',
): Promise<Acked[]> {
  const store = await LedgerStore.open({ dbPath, ...options });
  const acked: Acked[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const name = `${prefix}${i}`;
      const id = await insertWorkflow(store, name);
      acked.push({ name, id, seq: store.seq });
    }
  } finally {
    store.close();
  }
  return acked;
}

export async function insertWorkflow(store: LedgerStore, name: string): Promise<number> {
  const now = '2026-01-01T00:00:00.000Z';
  return store.write(
    (tx) =>
      tx.run('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', [name, now, now]).lastInsertRowid,
  );
}

/** Workflow name → id, as a store reads them. */
export function workflows(store: LedgerStore): Map<string, number> {
  const rows = store.read((db) => db.all<{ id: number; name: string }>('SELECT id, name FROM workflows'));
  return new Map(rows.map((r) => [r.name, r.id]));
}

/** The four store files' bytes (undefined for an absent one), to prove nothing was cut off or rewritten. */
export function snapshotFiles(dbPath: string): Record<string, Buffer | undefined> {
  const p = storePaths(dbPath);
  const out: Record<string, Buffer | undefined> = {};
  for (const file of [p.image, p.journal, p.prevImage, p.prevJournal])
    out[path.basename(file)] = fs.existsSync(file) ? fs.readFileSync(file) : undefined;
  return out;
}

/** Copies a store's files (not its damaged copies or lock) into another folder. */
export function copyStore(fromDbPath: string, toDir: string): string {
  const to = path.join(toDir, path.basename(fromDbPath));
  const from = storePaths(fromDbPath);
  const dest = storePaths(to);
  for (const key of ['image', 'journal', 'prevImage', 'prevJournal'] as const) {
    if (fs.existsSync(from[key])) fs.copyFileSync(from[key], dest[key]);
  }
  return to;
}

/** Overwrites bytes of a file in place. */
export function overwrite(file: string, offset: number, bytes: Buffer): void {
  const buf = fs.readFileSync(file);
  bytes.copy(buf, offset, 0, Math.min(bytes.length, buf.length - offset));
  fs.writeFileSync(file, buf);
}

/** Removes `length` bytes at `offset` (what follows moves up). */
export function deleteBytes(file: string, offset: number, length: number): void {
  const buf = fs.readFileSync(file);
  fs.writeFileSync(file, Buffer.concat([buf.subarray(0, offset), buf.subarray(Math.min(buf.length, offset + length))]));
}

/** A small seeded PRNG (mulberry32), so a failing trial can be replayed by its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Expands seq ranges into a set. */
export function seqSet(ranges: { from: number; to: number }[], extra: (number | undefined)[] = []): Set<number> {
  const out = new Set<number>();
  for (const r of ranges) for (let s = r.from; s <= r.to; s++) out.add(s);
  for (const s of extra) if (s !== undefined) out.add(s);
  return out;
}
