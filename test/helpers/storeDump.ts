import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LedgerEngine } from '../../src/core/ports/store';
import { openEngine } from '../../src/store/openEngine';
import { ledgerEnv, testStore } from './testLedger';

/**
 * Everything a workspace's ledger holds, to compare before and after a call: every table of the
 * store (the store's own bookkeeping included: on PostgreSQL its commit clock) with every row, the
 * commit seq (an insert undone by a delete moves it), and the files under `.agent-ledger/` other
 * than the embedded store's (a background checkpoint rewrites those without changing anything).
 */
export interface LedgerDump {
  seq: number;
  tables: Record<string, unknown[]>;
  files: Record<string, string>;
}

export interface LedgerDumper {
  dump(): Promise<LedgerDump>;
  close(): Promise<void>;
}

const storeFile = /^ledger\.(db|journal|lock)(\..*)?$/;

/** Opens the workspace's ledger (the store the suite runs on) read-only, beside the servers using it. */
export async function ledgerDumper(workspace: string): Promise<LedgerDumper> {
  const env = ledgerEnv(workspace);
  const engine: LedgerEngine =
    testStore === 'postgres'
      ? await openEngine(env.AGENT_LEDGER_DB as string, { env })
      : await openEngine(path.join(workspace, '.agent-ledger', 'ledger.db'), { readonly: true });
  return {
    dump: async () => {
      const tables = await engine.read(async (db) => {
        const names =
          testStore === 'postgres'
            ? (
                await db.all<{ name: string }>(
                  "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1",
                )
              ).map((r) => r.name)
            : (
                await db.all<{ name: string }>(
                  "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY 1",
                )
              ).map((r) => r.name);
        const out: Record<string, unknown[]> = {};
        for (const name of names) {
          const rows = await db.all<Record<string, unknown>>(`SELECT * FROM "${name}"`);
          out[name] = rows
            .map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)))
            .sort();
        }
        return out;
      });
      return { seq: engine.seq, tables, files: filesOf(path.join(workspace, '.agent-ledger')) };
    },
    close: () => engine.close(),
  };
}

function filesOf(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const file = path.join(dir, e.name);
      const rel = path.relative(root, file);
      if (dir === root && storeFile.test(e.name)) continue;
      if (e.isDirectory()) {
        out[`${rel}/`] = 'dir';
        walk(file);
      } else if (e.isSymbolicLink()) out[rel] = `link:${fs.readlinkSync(file)}`;
      else out[rel] = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    }
  };
  walk(root);
  return out;
}

/** What differs between two dumps, briefly (for an assertion message). */
export function dumpDifference(before: LedgerDump, after: LedgerDump): string[] {
  const diff: string[] = [];
  if (before.seq !== after.seq) diff.push(`commit seq ${before.seq} → ${after.seq}`);
  for (const name of new Set([...Object.keys(before.tables), ...Object.keys(after.tables)])) {
    const a = new Set(before.tables[name] ?? []);
    const b = new Set(after.tables[name] ?? []);
    const added = [...b].filter((r) => !a.has(r));
    const removed = [...a].filter((r) => !b.has(r));
    if (added.length || removed.length)
      diff.push(`${name}: +${added.length} -${removed.length} ${String(added[0] ?? removed[0]).slice(0, 300)}`);
  }
  for (const file of new Set([...Object.keys(before.files), ...Object.keys(after.files)]))
    if (before.files[file] !== after.files[file])
      diff.push(`file ${file}: ${before.files[file]} → ${after.files[file]}`);
  return diff;
}
