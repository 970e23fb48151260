import type { ToolFamily } from '../../toolDefinition';
import { pipelineInfo } from './family';
import { pipelineInitTool } from './pipelineInit';
import { pipelineInitWithContextTool } from './pipelineInitWithContext';
import { pipelineNextActionTool } from './pipelineNextAction';
import { pipelineReportResultTool } from './pipelineReportResult';

/** Pipelines: the engine decides every phase; the agent executes the action it gets; a person decides at checkpoints. */
export const pipelineFamily: ToolFamily = {
  ...pipelineInfo,
  tools: [pipelineInitTool, pipelineInitWithContextTool, pipelineNextActionTool, pipelineReportResultTool],
};
