import type { Services } from '../../app/services';
import { LedgerError } from '../../core/errors';
import type { FolderLedger } from '../ledger/folderLedger';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';

export interface WritableLedger {
  ledger: FolderLedger;
  services: Services;
}

/**
 * The folder a person's form writes to (the one given, the only one, or their pick) with its
 * services. A folder without a ledger gets one: a person's first task or memory entry starts the
 * ledger just as an agent's first tool call does. Undefined when they dismiss the pick.
 */
export async function writableLedger(
  registry: LedgerRegistry,
  folder: string | undefined,
  placeHolder: string,
): Promise<WritableLedger | undefined> {
  const ledger = folder === undefined ? await registry.pick(undefined, placeHolder) : registry.byPath(folder);
  if (!ledger) {
    if (folder === undefined) return undefined;
    throw new LedgerError('NotFound', `${folder} is not a folder of this window's workspace`);
  }
  const services = (await ledger.open({ create: true, retry: true })) ?? (await ledger.require());
  return { ledger, services };
}
