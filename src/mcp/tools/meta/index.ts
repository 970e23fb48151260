import type { ToolFamily } from '../../toolDefinition';
import { mcpInfoTool } from './mcpInfo';
import { mcpCapabilitiesTool } from './mcpCapabilities';

/** What this server is and which tools it exposes: always on, not a switchable family. */
export const introspectionFamily: ToolFamily = {
  name: 'introspection',
  description: 'mcp_info and mcp_capabilities: what this server is and which tools it exposes (always on)',
  enabledByDefault: true,
  tools: [mcpInfoTool, mcpCapabilitiesTool],
};
