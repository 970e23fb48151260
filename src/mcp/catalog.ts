import type { CatalogTool, ToolFamily } from './toolDefinition';
import type { FixedResourceDefinition, ResourceTemplateDefinition } from './resources/resourceDefinition';
import { introspectionFamily } from './tools/meta';
import { trackingFamily } from './tools/tracking';
import { tasksFamily } from './tools/tasks';
import { pipelineFamily } from './tools/pipeline';
import { pmFamily } from './tools/pm';
import { orchestratorFamily } from './tools/orchestrator';
import { taskResource } from './resources/taskResource';
import { agentResource } from './resources/agentResource';
import { memoryResource } from './resources/memoryResource';
import { workflowResource } from './resources/workflowResource';
import { projectResource } from './resources/projectResource';
import { contextResource } from './resources/contextResource';
import { handoffResource } from './resources/handoffResource';
import { executionResource } from './resources/executionResource';
import { executionsResource } from './resources/executionsResource';

/**
 * Every tool family the server can expose, in the order they are offered (the
 * `agentLedger.toolFamilies` setting lists them in the same order; a test holds the two
 * together). A new family is its folder under tools/ and one line here.
 */
export const toolFamilies: readonly ToolFamily[] = [
  trackingFamily,
  tasksFamily,
  pipelineFamily,
  pmFamily,
  orchestratorFamily,
];

/** The names of the switchable families. */
export const families: readonly string[] = toolFamilies.map((f) => f.name);

/** mcp_info and mcp_capabilities: always on, never switched. */
export { introspectionFamily };

/** Every tool, with its family: introspection first, then each family's in order. */
export function allTools(): CatalogTool[] {
  return [introspectionFamily, ...toolFamilies].flatMap((f) => f.tools.map((t) => ({ ...t, family: f.name })));
}

export function allResourceTemplates(): ResourceTemplateDefinition[] {
  return [workflowResource, taskResource, agentResource, projectResource, contextResource, handoffResource, executionResource, executionsResource];
}

/** Resources with one fixed URI. */
export function allFixedResources(): FixedResourceDefinition[] {
  return [memoryResource];
}
