import type { ToolFamily } from '../../toolDefinition';
import { orchestratorInfo } from './family';
import { bbSetTool } from './bbSet';
import { bbBatchSetTool } from './bbBatchSet';
import { bbGetTool } from './bbGet';
import { bbQueryTool } from './bbQuery';
import { bbDeleteTool } from './bbDelete';
import { bbWatchTool } from './bbWatch';
import { childTools } from './childTools';
import { schedulingTools } from './scheduling';
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
  ...orchestratorInfo,
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
