import * as path from 'node:path';
import { LedgerError } from '../../core/errors';
import type * as Domain from './domainEntry';

let domain: typeof Domain | undefined;

/**
 * The domain bundle (dist/ledger.js, beside dist/extension.js), loaded on first use: opening a
 * folder's ledger is the first thing that needs it.
 */
export function loadDomain(): typeof Domain {
  // A computed path: esbuild must leave this require alone, the file is a bundle of its own.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  domain ??= require(path.join(__dirname, 'ledger.js')) as typeof Domain;
  return domain;
}

/** A LedgerError (or GitError) from either bundle. */
export function isLedgerError(err: unknown): err is LedgerError {
  return LedgerError.is(err) || (domain?.LedgerError.is(err) ?? false);
}

/** A failure of the ledger's store (a LedgerError with code StoreError: damaged, unreachable server…). */
export function isStoreError(err: unknown): boolean {
  return isLedgerError(err) && err.code === 'StoreError';
}
