import { resourcesListInput, resourcesListOutput } from '../../../../core/coordination/resources/resourceContracts';
import { defineTool } from '../../../toolDefinition';

export const resourcesListTool = defineTool({
  name: 'resources_list',
  family: 'orchestrator',
  feature: 'resources',
  title: 'List resources',
  description:
    'List the sc:// resources of the workspace in URI order: plan graphs (sc://graphs/<id>) and their versions (@v<N>) and changes (sc://snapshots/...), run event streams (sc://runs/<id>/events, a workflow is wf-<id>), child runtime logs and blackboard namespaces. prefix narrows, limit ≤ 500 (default 100).',
  input: resourcesListInput,
  output: resourcesListOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => ({ items: await services.resources.list(args.prefix, args.limit ?? 100) }),
});
