import type { AsyncSqlReader } from '../engine';
import type { SchemaInfo, TableInfo } from '../tableInfo';
import { STORE_TABLE_NAMES } from './pgSchema';

const TYPES: Record<string, string> = {
  bigint: 'integer',
  integer: 'integer',
  smallint: 'integer',
  'double precision': 'real',
  real: 'real',
  text: 'text',
};

/** The ledger schema of the current PostgreSQL schema, described as schemaInfo.ts describes SQLite's. */
export async function pgSchemaInfo(db: AsyncSqlReader): Promise<SchemaInfo> {
  const info: SchemaInfo = new Map();
  const columns = await db.all<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: string;
    column_default: string | null;
  }>(
    `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
     WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  );
  const keys = await db.all<{ table_name: string; kind: string; columns: string; target: string | null }>(
    `SELECT t.relname AS table_name, c.contype AS kind, f.relname AS target,
            array_to_string(ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, o)
                                  JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o), ',') AS columns
     FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace s ON s.oid = t.relnamespace
     LEFT JOIN pg_class f ON f.oid = c.confrelid
     WHERE s.nspname = current_schema() AND c.contype IN ('p', 'u', 'f')`,
  );
  const indexes = await db.all<{ table_name: string; name: string; uniq: number; columns: string }>(
    `SELECT t.relname AS table_name, i.relname AS name, ix.indisunique AS uniq,
            array_to_string(ARRAY(SELECT a.attname FROM unnest(ix.indkey) WITH ORDINALITY k(n, o)
                                  JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.n ORDER BY k.o), ',') AS columns
     FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid
     JOIN pg_namespace s ON s.oid = t.relnamespace
     WHERE s.nspname = current_schema() AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = ix.indexrelid)`,
  );
  const table = (name: string): TableInfo => {
    let t = info.get(name);
    if (!t) info.set(name, (t = { name, columns: [], foreignKeys: [], indexes: [], uniques: [] }));
    return t;
  };
  for (const c of columns) {
    if (STORE_TABLE_NAMES.has(c.table_name)) continue;
    table(c.table_name).columns.push({
      name: c.column_name,
      type: TYPES[c.data_type] ?? c.data_type,
      notNull: c.is_nullable === 'NO',
      defaultValue: c.column_default === null ? null : c.column_default.replace(/::[a-z ]+$/i, ''),
      primaryKey: 0,
    });
  }
  for (const k of keys) {
    if (STORE_TABLE_NAMES.has(k.table_name)) continue;
    const t = table(k.table_name);
    const cols = k.columns.split(',');
    if (k.kind === 'p')
      cols.forEach((name, i) => ((t.columns.find((c) => c.name === name) ?? { primaryKey: 0 }).primaryKey = i + 1));
    else if (k.kind === 'u') t.uniques.push(cols);
    else if (k.kind === 'f' && k.target) t.foreignKeys.push({ column: cols[0], table: k.target });
  }
  for (const ix of indexes) {
    if (STORE_TABLE_NAMES.has(ix.table_name)) continue;
    table(ix.table_name).indexes.push({ name: ix.name, columns: ix.columns.split(','), unique: ix.uniq === 1 });
  }
  return info;
}
