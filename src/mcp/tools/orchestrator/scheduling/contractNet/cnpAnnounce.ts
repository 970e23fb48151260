import { cnpAnnounceInput, cnpAnnounceResult } from '../../../../../core/scheduling/contractNet/contractNetContracts';
import { runIdempotent } from '../../../../../core/coordination/idempotency/idempotencyRuns';
import { defineTool } from '../../../../toolDefinition';

export const cnpAnnounceTool = defineTool({
  name: 'cnp_announce',
  family: 'orchestrator',
  idempotent: true,
  title: 'Put a task out for bids',
  description:
    'Put a ledger task out for bids: every agent whose definition can write the task’s areas bids automatically (cost from its scope and skills, plus busy_penalty × its running tasks × the pressure on those areas), manual bids may be added, and the best bid is awarded at once (award: false leaves the call open). The winner becomes the task’s assignee. By default no award gives a task write scopes that overlap a running task’s; allowOverlap: true is a person’s override.',
  input: cnpAnnounceInput,
  output: cnpAnnounceResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  // The key is recorded in the announcement's own transaction: a refused announcement writes nothing.
  handler: async (args, { services }) => {
    const { idempotency_key: key, ...rest } = args;
    return runIdempotent(services.engine, Date.now, { tool: 'cnp_announce', key, args: rest }, (tx) =>
      services.scheduling.contractNet.announceIn(tx, args),
    );
  },
});
