import { planRunBtInput, planRunResult } from '../../../../core/runtime/planRuns/planRunContracts';
import { defineTool } from '../../../toolDefinition';
import { startPlanRun } from './planRunStart';

export const planRunBtTool = defineTool({
  name: 'plan_run_bt',
  family: 'orchestrator',
  idempotent: true,
  waits: true,
  title: 'Run a plan as a behaviour tree',
  description:
    'Run a plan: a workflow\'s plan graph (graph_id wf-<id>), a graph given inline, or a compiled tree. Each task leaf is queued for its agent (agents: { "task-3": "coder" }, or agent for all) when what it waits for is done, and the runner launches it; retries, fallbacks, timeouts and gates as the tree says. The run lives in the ledger: it goes on when this call answers, whichever server or runner takes the next step. Answers run_id and each node\'s state; wait_ms waits for the end. Follow it with plan_status or events_subscribe (kinds BT_RUN, SCHEDULER).',
  input: planRunBtInput,
  output: planRunResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: (args, ctx) => startPlanRun('plan_run_bt', 'bt', args, ctx),
});
