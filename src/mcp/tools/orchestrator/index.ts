import type { ToolFamily } from '../../toolDefinition';
import { bbSetTool } from './bbSet';
import { bbBatchSetTool } from './bbBatchSet';
import { bbGetTool } from './bbGet';
import { bbQueryTool } from './bbQuery';
import { bbDeleteTool } from './bbDelete';
import { bbWatchTool } from './bbWatch';
import { childInstructions, childTools } from './childTools';
import { schedulingInstructions, schedulingTools } from './scheduling';
import { graphMutateTool } from './graphMutate';
import { graphBatchMutateTool } from './graphBatchMutate';
import { graphDiffTool } from './graphDiff';
import { graphPatchTool } from './graphPatch';
import { graphLockTool } from './graphLock';
import { graphUnlockTool } from './graphUnlock';
import { resourcesListTool } from './resourcesList';
import { resourcesReadTool } from './resourcesRead';
import { resourcesWatchTool } from './resourcesWatch';
import { eventsSubscribeTool } from './eventsSubscribe';

/** Coordination of several agents: the blackboard, plan graphs, the sc:// registry and the event bus. */
export const orchestratorFamily: ToolFamily = {
  name: 'orchestrator',
  description: 'Orchestration: blackboard, plan graphs with diff/patch and locks, resources watch, event bus, idempotency, child runtimes, stigmergy, contract-net, knowledge graph',
  enabledByDefault: false,
  instructions:
    "Orchestrator: the blackboard is shared by every agent of the workspace: bb_set / bb_batch_set write entries, bb_get / bb_query read them, bb_delete removes one, bb_watch waits for changes after a version (pass next_version back). A workflow's plan is the graph wf-<id> (tasks and depends_on edges): graph_batch_mutate and graph_patch change it (expected_version / base_version guard against lost updates, graph_lock keeps other writers out), graph_diff compares versions. resources_watch and events_subscribe wait for new events (pass next_seq back) instead of polling." +
    ' ' +
    childInstructions +
    schedulingInstructions,
  tools: [
    bbSetTool,
    bbBatchSetTool,
    bbGetTool,
    bbQueryTool,
    bbDeleteTool,
    bbWatchTool,
    graphMutateTool,
    graphBatchMutateTool,
    graphDiffTool,
    graphPatchTool,
    graphLockTool,
    graphUnlockTool,
    resourcesListTool,
    resourcesReadTool,
    resourcesWatchTool,
    eventsSubscribeTool,
    ...childTools,
    ...schedulingTools,
  ],
};
