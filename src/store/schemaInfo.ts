import type { AsyncSqlReader, LedgerEngine } from './engine';
import { pgSchemaInfo } from './postgres/pgIntrospect';
import { STORE_TABLE_NAMES } from './postgres/pgSchema';
import type { SchemaInfo, TableInfo } from './tableInfo';

/** Describes the ledger schema an engine holds, the same way for both engines. */
export function schemaInfo(engine: LedgerEngine): Promise<SchemaInfo> {
  return engine.read((db) => (engine.kind === 'postgres' ? pgSchemaInfo(db) : sqliteSchemaInfo(db)));
}

async function sqliteSchemaInfo(db: AsyncSqlReader): Promise<SchemaInfo> {
  const info: SchemaInfo = new Map();
  const tables = await db.all<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  );
  for (const { name } of tables) {
    if (STORE_TABLE_NAMES.has(name)) continue;
    const cols = await db.all<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(
      `PRAGMA table_info("${name}")`,
    );
    const fks = await db.all<{ from: string; table: string }>(`PRAGMA foreign_key_list("${name}")`);
    const indexList = await db.all<{ name: string; unique: number; origin: string }>(`PRAGMA index_list("${name}")`);
    const table: TableInfo = {
      name,
      columns: cols.map((c) => ({
        name: c.name,
        type: c.type.toLowerCase(),
        notNull: c.notnull === 1 || c.pk > 0,
        defaultValue: c.dflt_value,
        primaryKey: c.pk,
      })),
      foreignKeys: fks.map((f) => ({ column: f.from, table: f.table })),
      indexes: [],
      uniques: [],
    };
    for (const index of indexList) {
      const columns = (await db.all<{ name: string; seqno: number }>(`PRAGMA index_info("${index.name}")`))
        .sort((a, b) => a.seqno - b.seqno)
        .map((c) => c.name);
      if (index.origin === 'c') table.indexes.push({ name: index.name, columns, unique: index.unique === 1 });
      else if (index.origin === 'u') table.uniques.push(columns);
    }
    info.set(name, table);
  }
  return info;
}
