import * as fs from 'node:fs';
import { EmbeddedEngine } from '../embedded/embeddedEngine';
import type { EngineKind, LedgerEngine } from '../engine';
import { StoreError } from '../errors';
import { copyLedger } from './ledgerCopy';
import type { CopyReport } from './ledgerCopy';
import { parseLedgerLocation } from '../location';
import type { LedgerLocation } from '../location';
import { openEngine } from '../openEngine';
import { CHANNEL, LedgerPgClient, pgTarget } from '../postgres/pgConnect';
import { pgStoreError } from '../postgres/pgErrors';
import { migrateSchema, schemaVersionOf } from '../postgres/pgSchema';
import { storePaths } from '../embedded/storePaths';

export type { CopyReport };

/** What `db init` / `db migrate` did. */
export interface SchemaReport {
  kind: EngineKind;
  /** The image path, or the URL with its password redacted. */
  location: string;
  /**
   * Schema version before (0: no ledger there yet); null for an existing embedded store, which
   * upgrades itself when opened so its earlier version is not kept.
   */
  from: number | null;
  to: number;
}

export interface AdminOptions {
  /** Resolves relative image paths. */
  cwd?: string;
  /** Where the PostgreSQL password is read (default process.env). */
  env?: NodeJS.ProcessEnv;
}

/**
 * `agent-ledger db init`: makes `location` a ledger of this version — creates the schema where
 * there is none (an image file, or the tables in an existing PostgreSQL database) and upgrades
 * an older one. Idempotent; safe from several machines at once.
 */
export function initLedgerDb(location: string | LedgerLocation, options: AdminOptions = {}): Promise<SchemaReport> {
  return upgrade(location, options, false);
}

/** `agent-ledger db migrate`: upgrades an existing ledger's schema to this version (`notInitialized` where there is none). */
export function migrateLedgerDb(location: string | LedgerLocation, options: AdminOptions = {}): Promise<SchemaReport> {
  return upgrade(location, options, true);
}

/**
 * `agent-ledger db copy --from A --to B`: the whole ledger with its ids, embedded ⇄ PostgreSQL
 * (or either to its own kind). The source is read as it is (a PostgreSQL source must already be
 * at this version); the target is created or upgraded first and must hold no ledger rows.
 */
export async function copyLedgerDb(
  from: string | LedgerLocation,
  to: string | LedgerLocation,
  options: AdminOptions = {},
): Promise<CopyReport> {
  const source = where(from, options);
  const target = where(to, options);
  if (JSON.stringify(source) === JSON.stringify(target))
    throw new StoreError('badLocation', 'copy a ledger to another place than where it is');
  let a: LedgerEngine | undefined;
  let b: LedgerEngine | undefined;
  try {
    a = await openEngine(source, { env: options.env, migrate: false });
    b = await openEngine(target, { env: options.env, migrate: true });
    const report = await copyLedger(a, b);
    // One large record: fold it into the image now rather than on some later write.
    if (b instanceof EmbeddedEngine) await b.checkpoint();
    return report;
  } finally {
    await a?.close();
    await b?.close();
  }
}

async function upgrade(
  location: string | LedgerLocation,
  options: AdminOptions,
  existingOnly: boolean,
): Promise<SchemaReport> {
  const place = where(location, options);
  if (place.kind === 'embedded') {
    const existed = imageExists(place.dbPath);
    if (existingOnly && !existed)
      throw new StoreError('notInitialized', `${place.dbPath} holds no ledger yet: run \`agent-ledger db init\``);
    // Opening migrates an embedded store (in one journaled write, whichever process gets there first).
    const engine = await EmbeddedEngine.open({ dbPath: place.dbPath });
    const to = engine.describe().schemaVersion;
    await engine.close();
    return { kind: 'embedded', location: place.dbPath, from: existed ? null : 0, to };
  }
  const target = pgTarget(place.url, options.env);
  const client = new LedgerPgClient(target.config);
  try {
    await client.connect();
    if (existingOnly && (await schemaVersionOf(client)) === 0)
      throw new StoreError(
        'notInitialized',
        `${target.display} holds no ledger yet: run \`agent-ledger db init --db <url>\``,
      );
    const { from, to } = await migrateSchema(client, CHANNEL);
    return { kind: 'postgres', location: target.display, from, to };
  } catch (err) {
    throw pgStoreError(err, target.display, target.password);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function where(location: string | LedgerLocation, options: AdminOptions): LedgerLocation {
  return typeof location === 'string' ? parseLedgerLocation(location, options.cwd) : location;
}

function imageExists(dbPath: string): boolean {
  const paths = storePaths(dbPath);
  return fs.existsSync(paths.image) || fs.existsSync(paths.journal);
}
