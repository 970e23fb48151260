import type { ToolFamily } from '../../toolDefinition';
import { bbSetTool } from './bbSet';
import { bbBatchSetTool } from './bbBatchSet';
import { bbGetTool } from './bbGet';
import { bbQueryTool } from './bbQuery';
import { bbDeleteTool } from './bbDelete';
import { bbWatchTool } from './bbWatch';
import { childInstructions, childTools } from './childTools';
import { schedulingInstructions, schedulingTools } from './scheduling';

/** Coordination of several agents: the blackboard now; event streams, resources watch and plan graphs to come. */
export const orchestratorFamily: ToolFamily = {
  name: 'orchestrator',
  description: 'Orchestration: blackboard, child runtimes, event streams, resources watch, idempotency',
  enabledByDefault: false,
  instructions:
    'Orchestrator: the blackboard is shared by every agent of the workspace: bb_set / bb_batch_set write entries, bb_get / bb_query read them, bb_delete removes one, bb_watch waits for changes after a version (pass next_version back). ' +
    childInstructions +
    schedulingInstructions,
  tools: [bbSetTool, bbBatchSetTool, bbGetTool, bbQueryTool, bbDeleteTool, bbWatchTool, ...childTools, ...schedulingTools],
};
