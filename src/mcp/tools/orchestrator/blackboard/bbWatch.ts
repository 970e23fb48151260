import { bbWatchInput, bbWatchOutput } from '../../../../core/coordination/blackboard/blackboardContracts';
import { opIdFor } from '../../../../core/coordination/idempotency/idempotencyRuns';
import { defineTool } from '../../../toolDefinition';

export const bbWatchTool = defineTool({
  name: 'bb_watch',
  family: 'orchestrator',
  feature: 'blackboard',
  waits: true,
  title: 'Watch blackboard',
  description:
    'Blackboard changes (set, delete, expire) after start_version, oldest first. When there are none yet it waits up to wait_ms for a change by any agent or process, then returns; pass next_version as start_version next time.',
  input: bbWatchInput,
  output: bbWatchOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => {
    const changes = await services.blackboard.watch(args.start_version, {
      waitMs: args.wait_ms,
      limit: args.limit,
      keyPrefix: args.key_prefix,
    });
    const events = changes.map((c) => ({
      version: c.version,
      kind: c.kind,
      key: c.key,
      timestamp: c.timestamp,
      reason: c.reason,
      entry: c.entry,
      previous: c.previous,
    }));
    return {
      op_id: opIdFor(args),
      events,
      next_version: events.length > 0 ? events[events.length - 1].version : args.start_version,
    };
  },
});
