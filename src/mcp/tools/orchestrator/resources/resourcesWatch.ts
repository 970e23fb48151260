import { resourcesWatchInput, resourcesWatchOutput } from '../../../../core/coordination/resources/resourceContracts';
import { defineTool } from '../../../toolDefinition';

export const resourcesWatchTool = defineTool({
  name: 'resources_watch',
  family: 'orchestrator',
  feature: 'resources',
  waits: true,
  title: 'Watch a resource',
  description:
    'Records of a run stream, a child log or a blackboard namespace after from_seq, oldest first. When there are none yet it waits up to wait_ms for one written by any process, then returns; pass next_seq as from_seq next time (nothing is skipped or repeated). format "sse" adds the records as Server-Sent Events messages and a ready stream. A cursor older than the kept history is refused with E-EVT-CURSOR-EXPIRED.',
  input: resourcesWatchInput,
  output: resourcesWatchOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => services.resources.watch(args),
});
