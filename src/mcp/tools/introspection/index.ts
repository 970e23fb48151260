import type { ToolFamily } from '../../toolDefinition';
import { introspectionInfo } from './family';
import { mcpInfoTool } from './mcpInfo';
import { mcpCapabilitiesTool } from './mcpCapabilities';

/** What this server is and which tools it exposes: always on, not a switchable family. */
export const introspectionFamily: ToolFamily = {
  ...introspectionInfo,
  tools: [mcpInfoTool, mcpCapabilitiesTool],
};
