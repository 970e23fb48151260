import type { ToolDefinition } from '../../../toolDefinition';
import { childCreateTool } from './childCreate';
import { childSpawnCodexTool } from './childSpawnCodex';
import { childBatchCreateTool } from './childBatchCreate';
import { childAttachTool } from './childAttach';
import { childSetRoleTool } from './childSetRole';
import { childSetLimitsTool } from './childSetLimits';
import { childStatusTool } from './childStatus';
import { childListTool } from './childList';
import { childSendTool } from './childSend';
import { childKillTool } from './childKill';
import { childLogsTool } from './childLogs';

/** The child-runtime tools of the orchestrator family, in the order they are listed. */
export const childTools: readonly ToolDefinition[] = [
  childCreateTool,
  childSpawnCodexTool,
  childBatchCreateTool,
  childAttachTool,
  childSetRoleTool,
  childSetLimitsTool,
  childStatusTool,
  childListTool,
  childSendTool,
  childKillTool,
  childLogsTool,
];
