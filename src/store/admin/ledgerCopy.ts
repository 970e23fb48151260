import type { SqlValue } from '../../core/ports/store';
import type { AsyncSqlWriter, LedgerEngine } from '../engine';
import { StoreError } from '../errors';
import { schemaInfo } from '../schemaInfo';
import type { TableInfo } from '../tableInfo';

/** What `copyLedger` copied: rows per table, in the order they were written. */
export interface CopyReport {
  from: string;
  to: string;
  schemaVersion: number;
  tables: { table: string; rows: number }[];
}

/** Bound values per INSERT: under SQLite's historical limit of 999. */
const MAX_VALUES = 900;

/**
 * Copies a whole ledger from one engine to another (embedded ⇄ PostgreSQL, or either to its own
 * kind): every row of every ledger table with its ids, in one write transaction on the target
 * (all or nothing), read from one consistent snapshot of the source. The target must hold the
 * same schema version and no ledger rows. Tables go parents first; a column that refers to its
 * own table (tasks.parent_id) is filled in by a second pass. On PostgreSQL each identity's
 * sequence is then moved past the highest copied id; SQLite takes max(id) + 1 by itself. The
 * copy is checked by counting the rows of each table on both sides.
 */
export async function copyLedger(from: LedgerEngine, to: LedgerEngine): Promise<CopyReport> {
  const source = from.describe();
  const target = to.describe();
  if (source.schemaVersion !== target.schemaVersion) {
    throw new StoreError(
      'needsMigration',
      `the source holds ledger schema v${source.schemaVersion} and the target v${target.schemaVersion}: migrate the older one first (agent-ledger db migrate)`,
    );
  }
  const tables = parentsFirst([...(await schemaInfo(from)).values()]);
  const targetTables = await schemaInfo(to);
  for (const t of tables)
    if (!targetTables.has(t.name)) throw new StoreError('sql', `the target has no table ${t.name}`);
  const rows = await from.read(async (db) => {
    const all = new Map<string, Record<string, SqlValue>[]>();
    for (const t of tables)
      all.set(t.name, await db.all<Record<string, SqlValue>>(`SELECT * FROM "${t.name}" ORDER BY ${orderOf(t)}`));
    return all;
  });
  await to.write(async (tx) => {
    for (const t of tables) {
      if (await tx.get(`SELECT 1 AS x FROM "${t.name}" LIMIT 1`)) {
        throw new StoreError(
          'notEmpty',
          `${target.location} already holds a ledger (table ${t.name} has rows): copy into an empty one`,
        );
      }
    }
    for (const t of tables) await copyTable(tx, t, rows.get(t.name) ?? []);
    if (to.kind === 'postgres') for (const t of tables) await moveSequences(tx, t);
  });
  const report: CopyReport = {
    from: source.location,
    to: target.location,
    schemaVersion: source.schemaVersion,
    tables: [],
  };
  const counts = await to.read(async (db) =>
    Promise.all(tables.map((t) => db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM "${t.name}"`))),
  );
  tables.forEach((t, i) => {
    const expected = rows.get(t.name)?.length ?? 0;
    if (Number(counts[i]?.n) !== expected)
      throw new StoreError('sql', `table ${t.name}: ${expected} rows read, ${counts[i]?.n} found in the target`);
    report.tables.push({ table: t.name, rows: expected });
  });
  return report;
}

async function copyTable(tx: AsyncSqlWriter, table: TableInfo, rows: Record<string, SqlValue>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = table.columns.map((c) => c.name);
  const selfRefs = table.foreignKeys.filter((f) => f.table === table.name).map((f) => f.column);
  const perInsert = Math.max(1, Math.floor(MAX_VALUES / columns.length));
  const list = columns.map((c) => `"${c}"`).join(', ');
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  for (let i = 0; i < rows.length; i += perInsert) {
    const batch = rows.slice(i, i + perInsert);
    const values = batch.flatMap((row) => columns.map((c) => (selfRefs.includes(c) ? null : (row[c] ?? null))));
    await tx.run(`INSERT INTO "${table.name}" (${list}) VALUES ${batch.map(() => tuple).join(', ')}`, values);
  }
  const key = table.columns.filter((c) => c.primaryKey > 0).map((c) => c.name);
  for (const column of selfRefs) {
    for (const row of rows) {
      if (row[column] === null || row[column] === undefined) continue;
      await tx.run(`UPDATE "${table.name}" SET "${column}" = ? WHERE ${key.map((k) => `"${k}" = ?`).join(' AND ')}`, [
        row[column],
        ...key.map((k) => row[k]),
      ]);
    }
  }
}

/** Moves each identity sequence past the highest id copied (PostgreSQL keeps them apart from the rows). */
async function moveSequences(tx: AsyncSqlWriter, table: TableInfo): Promise<void> {
  for (const column of table.columns.filter((c) => c.primaryKey === 1 && c.type === 'integer')) {
    const single = table.columns.filter((c) => c.primaryKey > 0).length === 1;
    if (!single) continue;
    await tx.get(
      `SELECT setval(pg_get_serial_sequence(?, ?), COALESCE((SELECT MAX("${column.name}") FROM "${table.name}"), 0) + 1, false) AS next
       WHERE pg_get_serial_sequence(?, ?) IS NOT NULL`,
      [table.name, column.name, table.name, column.name],
    );
  }
}

/** Tables ordered so that every table comes after the tables it refers to. */
function parentsFirst(tables: TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const out: TableInfo[] = [];
  const visit = (t: TableInfo, path: Set<string>): void => {
    if (done.has(t.name) || path.has(t.name)) return;
    path.add(t.name);
    for (const fk of t.foreignKeys) {
      const parent = byName.get(fk.table);
      if (parent && parent.name !== t.name) visit(parent, path);
    }
    done.add(t.name);
    out.push(t);
  };
  for (const t of [...tables].sort((a, b) => a.name.localeCompare(b.name))) visit(t, new Set());
  return out;
}

function orderOf(table: TableInfo): string {
  const key = table.columns
    .filter((c) => c.primaryKey > 0)
    .sort((a, b) => a.primaryKey - b.primaryKey)
    .map((c) => `"${c.name}"`);
  return key.length ? key.join(', ') : '1';
}
