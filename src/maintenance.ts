import { ledgerPaths } from './services';
import { checkStore } from './store/storeCheck';
import type { CheckReport } from './store/storeCheck';
import { repairStore } from './store/storeRepair';
import type { RepairReport } from './store/storeRepair';

export type { CheckReport, RepairReport };

/**
 * `agent-ledger db check|repair`: the store's own files, examined without opening the store (a
 * damaged ledger cannot be opened for use, and a check must not change anything). Faces call
 * these as they call `createServices`, never src/store directly.
 */
export function checkLedger(workspace: string, dbPath?: string): Promise<CheckReport> {
  return checkStore(ledgerPaths(workspace, dbPath).dbPath);
}

export function repairLedger(workspace: string, dbPath?: string): Promise<RepairReport> {
  return repairStore(ledgerPaths(workspace, dbPath).dbPath);
}
