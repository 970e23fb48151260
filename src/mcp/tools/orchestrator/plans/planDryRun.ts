import { planDryRunInput, planDryRunOutput } from '../../../../core/runtime/planRuns/planRunContracts';
import { defineTool } from '../../../toolDefinition';

export const planDryRunTool = defineTool({
  name: 'plan_dry_run',
  family: 'orchestrator',
  title: 'See what a plan run would do',
  description:
    'What running a plan would do, without doing it: the leaves in waves (one wave can run at once), the agent of each task, the client and model the runner would start it with (`client` and `model` as plan_run_bt takes them), the write scope it declares, the pairs of one wave whose write scopes overlap (the runner runs those one after the other), and problems that would stop the run (a missing task, a task with no agent).',
  input: planDryRunInput,
  output: planDryRunOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => services.planRuns.dryRun(args),
});
