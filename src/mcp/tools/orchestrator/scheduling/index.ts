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
