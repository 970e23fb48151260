import type { z } from 'zod';
import * as bb from './blackboard/blackboardContracts';
import * as events from './bus/eventContracts';
import * as graph from './plans/graphContracts';
import * as graphTools from './plans/graphToolContracts';
import * as resources from './resources/resourceContracts';

/** Input and output schema of one tool. */
export interface ToolContract {
  input: z.ZodObject;
  output: z.ZodObject;
}

/**
 * Every orchestrator-family contract this module defines, by tool name, so the MCP faces
 * and the tests walk one table (the child runtime, stigmergy, contract-net and knowledge
 * tools are defined elsewhere).
 */
export const orchestratorContracts = {
  resources_list: { input: resources.resourcesListInput, output: resources.resourcesListOutput },
  resources_read: { input: resources.resourcesReadInput, output: resources.resourcesReadOutput },
  resources_watch: { input: resources.resourcesWatchInput, output: resources.resourcesWatchOutput },
  events_subscribe: { input: events.eventsSubscribeInput, output: events.eventsSubscribeOutput },
  bb_set: { input: bb.bbSetInput, output: bb.bbSetOutput },
  bb_batch_set: { input: bb.bbBatchSetInput, output: bb.bbBatchSetOutput },
  bb_get: { input: bb.bbGetInput, output: bb.bbGetOutput },
  bb_query: { input: bb.bbQueryInput, output: bb.bbQueryOutput },
  bb_watch: { input: bb.bbWatchInput, output: bb.bbWatchOutput },
  bb_delete: { input: bb.bbDeleteInput, output: bb.bbDeleteOutput },
  graph_mutate: { input: graph.graphMutateInput, output: graph.graphMutateOutput },
  graph_batch_mutate: { input: graph.graphBatchMutateInput, output: graph.graphBatchMutateOutput },
  graph_diff: { input: graphTools.graphDiffInput, output: graphTools.graphDiffOutput },
  graph_patch: { input: graphTools.graphPatchInput, output: graphTools.graphPatchOutput },
  graph_lock: { input: graphTools.graphLockInput, output: graphTools.graphLockOutput },
  graph_unlock: { input: graphTools.graphUnlockInput, output: graphTools.graphUnlockOutput },
} as const satisfies Record<string, ToolContract>;

export type OrchestratorToolName = keyof typeof orchestratorContracts;
