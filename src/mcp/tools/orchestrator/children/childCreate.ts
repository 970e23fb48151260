import { childCreateInput, childCreateOutput } from '../../../../core/runtime/children/childContracts';
import { opIdFor, runIdempotentOutside } from '../../../../core/coordination/idempotency/idempotencyRuns';
import { defineTool } from '../../../toolDefinition';

export const childCreateTool = defineTool({
  name: 'child_create',
  family: 'orchestrator',
  idempotent: true,
  title: 'Create child runtime',
  description:
    "Start a child runtime: any program with its arguments (a bare name on PATH or an absolute path, never a shell line), in a folder of the workspace, under wall-clock and output limits. Its input stays open for child_send; its log is readable as it is written (child_logs, sc://children/<id>/logs). Returns the child's manifest and runtime status.",
  input: childCreateInput,
  output: childCreateOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  handler: async (args, { services }) => {
    const opId = opIdFor(args);
    return runIdempotentOutside(
      services.engine,
      Date.now,
      { tool: 'child_create', key: args.idempotency_key, args, check: () => services.children.checkCreate(args, opId) },
      () => services.children.create(args, opId),
    );
  },
});
