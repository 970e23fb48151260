import { childSpawnCodexInput, childSpawnCodexOutput } from '../../../../core/runtime/children/childContracts';
import { opIdFor, runIdempotentOutside } from '../../../../core/coordination/idempotency/idempotencyRuns';
import { defineTool } from '../../../toolDefinition';

export const childSpawnCodexTool = defineTool({
  name: 'child_spawn_codex',
  family: 'orchestrator',
  feature: 'child-ops-fine',
  idempotent: true,
  title: 'Spawn Codex child',
  description:
    "Start Codex (`codex exec --json`) as a child runtime on a prompt, in a folder of the workspace, with its sandbox, role and limits. Returns the child's manifest and runtime status; follow its JSON events with child_logs.",
  input: childSpawnCodexInput,
  output: childSpawnCodexOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  handler: async (args, { services }) => {
    const opId = opIdFor(args);
    return runIdempotentOutside(
      services.engine,
      Date.now,
      {
        tool: 'child_spawn_codex',
        key: args.idempotency_key,
        args,
        check: () => services.children.checkSpawnCodex(args, opId),
      },
      () => services.children.spawnCodex(args, opId),
    );
  },
});
