import type { ToolDefinition } from '../../toolDefinition';
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

/** How an agent uses them (part of the family's instructions). */
export const childInstructions =
  'Child runtimes: child_create starts a program, child_spawn_codex / child_batch_create start Codex on a prompt; child_send writes to a child, child_logs reads its output as it is written (pass next_seq back), child_status / child_list show them, child_kill stops one; child_attach, child_set_role and child_set_limits adjust one.';
