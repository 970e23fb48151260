import { EmbeddedEngine } from './embedded/embeddedEngine';
import type { EmbeddedEngineOptions } from './embedded/embeddedEngine';
import type { LedgerEngine } from './engine';
import { parseLedgerLocation } from './location';
import type { LedgerLocation } from './location';
import type { PostgresEngineOptions } from './postgres/postgresEngine';

/** Options for whichever engine the location names. */
export interface OpenEngineOptions extends Omit<EmbeddedEngineOptions, 'dbPath'>, Omit<PostgresEngineOptions, 'url'> {
  /** Resolves relative image paths (default process.cwd()). */
  cwd?: string;
}

/**
 * Opens the ledger at `location`: a `postgres://` URL opens the PostgreSQL engine, a path the
 * embedded one (see `parseLedgerLocation` for the rule; other URL schemes are refused).
 */
export async function openEngine(
  location: string | LedgerLocation,
  options: OpenEngineOptions = {},
): Promise<LedgerEngine> {
  const where = typeof location === 'string' ? parseLedgerLocation(location, options.cwd) : location;
  if (where.kind === 'postgres') {
    // pg (and the fetch machinery it wakes) is loaded only for a PostgreSQL ledger: ~35 ms of every embedded start otherwise.
    const { PostgresEngine } = await import('./postgres/postgresEngine.js');
    return PostgresEngine.open({ ...options, url: where.url });
  }
  return EmbeddedEngine.open({ ...options, dbPath: where.dbPath });
}
