import type { PlanRunMessage } from '../../shared/protocol';
import { steerPlanRun } from '../../views/planRunModel';
import { editorUser } from '../views/pipelines/pipelineDecisions';
import type { FolderLedger } from '../ledger/folderLedger';
import { isLedgerError } from '../ledger/loadDomain';

/**
 * Pause, Resume, Cancel or a gate's decision clicked in a panel (the Board, the Plan graph), as
 * the editor's person (as their pipeline decisions): what to say on the page — done, or the
 * refusal's message.
 */
export async function steerFromPanel(
  ledger: FolderLedger,
  message: PlanRunMessage,
): Promise<{ type: 'acted'; ok: boolean; text: string }> {
  const services = await ledger.require();
  try {
    return { type: 'acted', ok: true, text: await steerPlanRun(services, editorUser(), message) };
  } catch (err) {
    if (!isLedgerError(err)) throw err;
    return { type: 'acted', ok: false, text: err.message };
  }
}
