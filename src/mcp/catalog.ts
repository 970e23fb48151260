import type { CatalogTool, ToolFamily } from './toolDefinition';
import { introspectionFamily } from './tools/meta';
import { trackingFamily } from './tools/tracking';
import { tasksFamily } from './tools/tasks';
import { pipelineFamily } from './tools/pipeline';
import { pmFamily } from './tools/pm';
import { orchestratorFamily } from './tools/orchestrator';

/**
 * Every tool family the server can expose, in the order they are offered (the
 * `agentLedger.toolFamilies` setting lists them in the same order; a test holds the two
 * together). A new family is its folder under tools/ (index.ts and family.ts), one line here and
 * one in familyCatalog.ts, which `mcp serve` loads instead of this file (its tools load on first call).
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
