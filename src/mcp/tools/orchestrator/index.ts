import type { ToolFamily } from '../../toolDefinition';
import { orchestratorInfo } from './family';
import { bbSetTool } from './blackboard/bbSet';
import { bbBatchSetTool } from './blackboard/bbBatchSet';
import { bbGetTool } from './blackboard/bbGet';
import { bbQueryTool } from './blackboard/bbQuery';
import { bbDeleteTool } from './blackboard/bbDelete';
import { bbWatchTool } from './blackboard/bbWatch';
import { childTools } from './children/childTools';
import { schedulingTools } from './scheduling';
import { graphMutateTool } from './plans/graphMutate';
import { graphBatchMutateTool } from './plans/graphBatchMutate';
import { graphDiffTool } from './plans/graphDiff';
import { graphPatchTool } from './plans/graphPatch';
import { graphLockTool } from './plans/graphLock';
import { graphUnlockTool } from './plans/graphUnlock';
import { planCompileBtTool } from './plans/planCompileBt';
import { planRunBtTool } from './plans/planRunBt';
import { planRunReactiveTool } from './plans/planRunReactive';
import { planStatusTool } from './plans/planStatus';
import { planPauseTool } from './plans/planPause';
import { planResumeTool } from './plans/planResume';
import { planCancelTool } from './plans/planCancel';
import { opCancelTool } from './plans/opCancel';
import { planDryRunTool } from './plans/planDryRun';
import { txBeginTool } from './plans/txBegin';
import { txApplyTool } from './plans/txApply';
import { txCommitTool } from './plans/txCommit';
import { txRollbackTool } from './plans/txRollback';
import { valuesExplainTool } from './plans/valuesExplain';
import { resourcesListTool } from './resources/resourcesList';
import { resourcesReadTool } from './resources/resourcesRead';
import { resourcesWatchTool } from './resources/resourcesWatch';
import { eventsSubscribeTool } from './bus/eventsSubscribe';

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
    planCompileBtTool,
    planRunBtTool,
    planRunReactiveTool,
    planStatusTool,
    planPauseTool,
    planResumeTool,
    planCancelTool,
    opCancelTool,
    planDryRunTool,
    txBeginTool,
    txApplyTool,
    txCommitTool,
    txRollbackTool,
    valuesExplainTool,
    resourcesListTool,
    resourcesReadTool,
    resourcesWatchTool,
    eventsSubscribeTool,
    ...childTools,
    ...schedulingTools,
  ],
};
