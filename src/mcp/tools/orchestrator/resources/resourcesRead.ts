import { resourcesReadInput, resourcesReadOutput } from '../../../../core/coordination/resources/resourceContracts';
import { defineTool } from '../../../toolDefinition';

export const resourcesReadTool = defineTool({
  name: 'resources_read',
  family: 'orchestrator',
  feature: 'resources',
  title: 'Read a resource',
  description:
    'Read one sc:// resource: a plan graph or one of its versions (sc://graphs/<id>@v<N>), a change with the graph before and after, the newest 500 events of a run or lines of a child log, or the entries of a blackboard namespace. A malformed URI is refused with E-RES-INVALID, an unknown one with E-RES-NOT-FOUND.',
  input: resourcesReadInput,
  output: resourcesReadOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { services }) => services.resources.read(args.uri),
});
