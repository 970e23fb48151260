import * as path from 'node:path';
import { ledgerFolder, storeImageName } from '../core/ledgerFiles';
import type * as DbAdmin from '../store/admin/dbAdmin';
import type { CopyReport, SchemaReport } from '../store/admin/dbAdmin';
import { StoreError } from '../store/errors';
import type { StoreErrorReason } from '../store/errors';
import { parseLedgerLocation, redactUrl } from '../store/location';
import type { CheckReport } from '../store/admin/storeCheck';
import type { RepairReport } from '../store/admin/storeRepair';

export type { CheckReport, CopyReport, RepairReport, SchemaReport, StoreErrorReason };

/**
 * `agent-ledger db check|repair|init|migrate|copy`: the store itself administered, with no ledger
 * open (a damaged ledger cannot be opened for use, a check must change nothing, a schema is made
 * before anything can open it). The faces reach the store through this port, as they reach the
 * domain through `createServices`, and never import src/store.
 */
export interface StoreAdmin {
  /** What is intact and what is lost in the embedded store's image and journal; changes nothing. */
  check(workspace: string, db?: string): Promise<CheckReport>;
  /** Rebuilds a damaged embedded store from every intact record, keeping copies of the damaged files. */
  repair(workspace: string, db?: string): Promise<RepairReport>;
  /** Makes `location` a ledger of this version (creates or upgrades the schema); idempotent. */
  init(location: string): Promise<SchemaReport>;
  /** Upgrades an existing ledger's schema (`notInitialized` where there is none). */
  migrate(location: string): Promise<SchemaReport>;
  /** The whole ledger with its ids, embedded ⇄ PostgreSQL, into an empty target. */
  copy(from: string, to: string): Promise<CopyReport>;
  /** Where the workspace's embedded ledger is (the location when no `--db` is given). */
  workspaceLedger(workspace: string): string;
  /** The store's own reason of a failure (`badLocation`, `authFailed`, `notEmpty`…), or undefined. */
  reasonOf(err: unknown): StoreErrorReason | undefined;
}

export const storeAdmin: StoreAdmin = {
  check: async (workspace, db) => {
    const dbPath = embeddedPath(workspace, embeddedOnly(db, 'check'));
    return (await import('../store/admin/storeCheck.js')).checkStore(dbPath);
  },
  repair: async (workspace, db) => {
    const dbPath = embeddedPath(workspace, embeddedOnly(db, 'repair'));
    return (await import('../store/admin/storeRepair.js')).repairStore(dbPath);
  },
  init: async (location) => (await dbAdmin()).initLedgerDb(location, { env: process.env }),
  migrate: async (location) => (await dbAdmin()).migrateLedgerDb(location, { env: process.env }),
  copy: async (from, to) => (await dbAdmin()).copyLedgerDb(from, to, { env: process.env }),
  workspaceLedger: (workspace) => path.join(workspace, ledgerFolder, storeImageName),
  reasonOf: (err) => (StoreError.is(err) ? err.reason : undefined),
};

/** The store's schema and copy functions (like check and repair above), loaded when a `db` command runs (the PostgreSQL driver stays out of every other command's start-up). */
function dbAdmin(): Promise<typeof DbAdmin> {
  return import('../store/admin/dbAdmin.js');
}

/** The embedded store's file of a workspace (or of `--db <file>`), resolved as every command resolves it. */
function embeddedPath(workspace: string, dbPath: string | undefined): string {
  return dbPath ? path.resolve(dbPath) : storeAdmin.workspaceLedger(path.resolve(workspace));
}

/** `db check|repair` read the embedded store's files; a server keeps its own. */
function embeddedOnly(db: string | undefined, command: string): string | undefined {
  if (db === undefined) return undefined;
  const where = parseLedgerLocation(db);
  if (where.kind === 'postgres') {
    throw new StoreError(
      'badLocation',
      `db ${command} examines the embedded store's files; ${redactUrl(db)} is a PostgreSQL server, which checks its own (use its tools)`,
    );
  }
  return where.dbPath;
}
