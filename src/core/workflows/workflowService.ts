import type { LedgerEngine } from '../ports/store';
import { workflowKey } from '../ids';
import type { Clock } from '../time';
import { iso } from '../time';
import { appendEvent } from '../events/eventLog';
import { insertWorkflow } from './workflowRepo';
import type { StartWorkflowInput, StartWorkflowResult } from './workflowContracts';

/** Workflows: start_workflow, and the read side the CLI, the resources and the editor share. */
export class WorkflowService {
  constructor(
    private readonly db: LedgerEngine,
    private readonly clock: Clock,
  ) {}

  async start(input: StartWorkflowInput): Promise<StartWorkflowResult> {
    const now = iso(this.clock.now());
    const id = await this.db.write(async (tx) => {
      const id = await insertWorkflow(tx, {
        name: input.name,
        description: input.description ?? null,
        plan: input.plan ?? [],
        kind: 'workflow',
        createdAt: now,
      });
      await appendEvent(tx, { ts: now, kind: 'workflow.started', workflowId: id, payload: { name: input.name } });
      return id;
    });
    return { workflow_id: workflowKey(id), created_at: now };
  }
}
