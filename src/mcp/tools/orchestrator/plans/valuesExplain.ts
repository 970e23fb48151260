import { valuesExplainInput, valuesExplainOutput } from '../../../../core/scheduling/stepGuards/stepGuardsContracts';
import { opIdFor } from '../../../../core/coordination/idempotency/idempotencyRuns';
import { defineTool } from '../../../toolDefinition';

export const valuesExplainTool = defineTool({
  name: 'values_explain',
  family: 'orchestrator',
  feature: 'values-explain',
  title: 'Explain why plan steps may start',
  description:
    "Why each step of a plan graph may or may not start now, guard by guard, as every launch checks them: it is a ledger task, it is open, the steps it depends on are done (else E-TASK-BLOCKED), what it writes overlaps no running task (else E-CNP-SCOPE-CONFLICT); and whether owner may change or lock the plan (another holder's lock, other owners' open transactions). decision.allowed is true when every step explained may start; violations name each hold with a hint. Reads only.",
  input: valuesExplainInput,
  output: valuesExplainOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => ({ op_id: opIdFor(args), ...(await services.stepGuards.explain(args)) }),
});
