import type { FamilyInfo, ToolFamily } from './toolDefinition';
import { introspectionInfo } from './tools/meta/family';
import { trackingInfo } from './tools/tracking/family';
import { tasksInfo } from './tools/tasks/family';
import { pipelineInfo } from './tools/pipeline/family';
import { pmInfo } from './tools/pm/family';
import { orchestratorInfo } from './tools/orchestrator/family';

/**
 * A tool family as `mcp serve` holds it: what it is (name, switch, instructions) at once, its
 * tools — their zod contracts, their handlers, the services they import — only when a call needs
 * them (docs/performance.md). Each `load` is a dynamic import that esbuild keeps inside the
 * bundle but evaluates on first call, so a family that is off is never built.
 */
export interface LazyFamily {
  info: FamilyInfo;
  load(): Promise<ToolFamily>;
}

/** mcp_info and mcp_capabilities: always on, never switched. */
export const lazyIntrospection: LazyFamily = {
  info: introspectionInfo,
  load: async () => (await import('./tools/meta/index.js')).introspectionFamily,
};

/**
 * The switchable families, in the order of catalog.ts's `toolFamilies` (a test holds the two
 * lists together: same families, same order, each `load` giving the catalog's own family).
 */
export const lazyFamilies: readonly LazyFamily[] = [
  { info: trackingInfo, load: async () => (await import('./tools/tracking/index.js')).trackingFamily },
  { info: tasksInfo, load: async () => (await import('./tools/tasks/index.js')).tasksFamily },
  { info: pipelineInfo, load: async () => (await import('./tools/pipeline/index.js')).pipelineFamily },
  { info: pmInfo, load: async () => (await import('./tools/pm/index.js')).pmFamily },
  { info: orchestratorInfo, load: async () => (await import('./tools/orchestrator/index.js')).orchestratorFamily },
];

/** The switchable families' descriptions, in order. */
export const familyInfos: readonly FamilyInfo[] = lazyFamilies.map((f) => f.info);
