export interface McpToolStatus {
  name: string;
  package: string;
  version: string;
  installedVersion: string | null;
  ok: boolean;
  program: string;
}
export const mcpToolsDir: string;
export const mcpTools: Record<string, { package: string; version: string; program: string; bin?: string }>;
export function mcpToolStatus(name: string, dir?: string): McpToolStatus;
export function installMcpTool(
  name: string,
  options?: { dir?: string; log?: (message: string) => void },
): McpToolStatus;
