import type { ToolDefinition } from '../../../toolDefinition';
import { stigMarkTool } from './stigMark';
import { stigBatchTool } from './stigBatch';
import { stigDecayTool } from './stigDecay';
import { stigSnapshotTool } from './stigSnapshot';
import { cnpAnnounceTool } from './cnpAnnounce';
import { cnpBidTool } from './cnpBid';
import { cnpAwardTool } from './cnpAward';
import { cnpRefreshBoundsTool } from './cnpRefreshBounds';
import { cnpWatcherTelemetryTool } from './cnpWatcherTelemetry';
import { kgInsertTool } from './kgInsert';
import { kgQueryTool } from './kgQuery';
import { kgExportTool } from './kgExport';
import { kgSuggestPlanTool } from './kgSuggestPlan';

/** The scheduling tools of the orchestrator family: stigmergy, contract-net, knowledge graph. */
export const schedulingTools: ToolDefinition[] = [
  stigMarkTool,
  stigBatchTool,
  stigDecayTool,
  stigSnapshotTool,
  cnpAnnounceTool,
  cnpBidTool,
  cnpAwardTool,
  cnpRefreshBoundsTool,
  cnpWatcherTelemetryTool,
  kgInsertTool,
  kgQueryTool,
  kgExportTool,
  kgSuggestPlanTool,
];

/** What the family's instructions say about them. */
export const schedulingInstructions =
  ' Scheduling: stig_mark / stig_batch mark the files and scopes you are changing, stig_snapshot shows where agents are working (marks fade and vanish when their task ends); cnp_announce puts a task out for bids and awards it to the best-fitting, least busy agent without overlapping a running task’s write scope (cnp_bid, cnp_award, cnp_refresh_bounds, cnp_watcher_telemetry); kg_insert / kg_query / kg_export hold facts and kg_suggest_plan suggests plan fragments from what worked before.';
