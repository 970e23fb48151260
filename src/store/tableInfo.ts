/** The ledger's schema as both engines describe it (schemaInfo.ts reads it from either). */

/** A column as both engines can describe it (types folded to SQLite's affinities). */
export interface ColumnInfo {
  name: string;
  type: 'integer' | 'real' | 'text' | string;
  notNull: boolean;
  /** The default's literal ('[]', 0, 'medium'), null when none. */
  defaultValue: string | null;
  /** Position in the primary key (1-based), 0 when not part of it. */
  primaryKey: number;
}

export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  /** Columns that refer to another table (or to this one). */
  foreignKeys: { column: string; table: string }[];
  /** Explicit indexes: name, columns in order, unique. */
  indexes: { name: string; columns: string[]; unique: boolean }[];
  /** UNIQUE constraints (columns in order), named differently by each engine. */
  uniques: string[][];
}

/** The ledger's tables (the store's own left out), by name. */
export type SchemaInfo = Map<string, TableInfo>;
