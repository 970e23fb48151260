import type { ToolDefinition } from '../../../toolDefinition';
import { stigMarkTool } from './stigmergy/stigMark';
import { stigBatchTool } from './stigmergy/stigBatch';
import { stigDecayTool } from './stigmergy/stigDecay';
import { stigSnapshotTool } from './stigmergy/stigSnapshot';
import { cnpAnnounceTool } from './contractNet/cnpAnnounce';
import { cnpBidTool } from './contractNet/cnpBid';
import { cnpAwardTool } from './contractNet/cnpAward';
import { cnpRefreshBoundsTool } from './contractNet/cnpRefreshBounds';
import { cnpWatcherTelemetryTool } from './contractNet/cnpWatcherTelemetry';
import { kgInsertTool } from './knowledge/kgInsert';
import { kgQueryTool } from './knowledge/kgQuery';
import { kgExportTool } from './knowledge/kgExport';
import { kgSuggestPlanTool } from './knowledge/kgSuggestPlan';

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
