import { planRunReactiveInput, planRunResult } from '../../../../core/runtime/planRuns/planRunContracts';
import { defineTool } from '../../../toolDefinition';
import { startPlanRun } from './planRunStart';

export const planRunReactiveTool = defineTool({
  name: 'plan_run_reactive',
  family: 'orchestrator',
  idempotent: true,
  waits: true,
  title: 'Run a plan on a scheduler tick',
  description:
    'Run a plan as plan_run_bt does, re-evaluated every tick_ms by this server while it runs (and at every runner poll, and the moment one of its tasks ends), with SCHEDULER events (scheduler_event_enqueued, scheduler_tick_result) on the bus. timeout_ms cancels the whole run when it has not ended by then.',
  input: planRunReactiveInput,
  output: planRunResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: (args, ctx) => startPlanRun('plan_run_reactive', 'reactive', args, ctx),
});
