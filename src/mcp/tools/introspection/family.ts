import type { FamilyInfo } from '../../toolDefinition';

/**
 * What this server is and which tools it exposes: always on, not a switchable family.
 * What the server and the extension know of the family without loading its tools (families.ts).
 */
export const introspectionInfo: FamilyInfo = {
  name: 'introspection',
  description: 'mcp_info and mcp_capabilities: what this server is and which tools it exposes (always on)',
  enabledByDefault: true,
};
