import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/** The MCP Apps extension: a tool's `_meta.ui.resourceUri` names a `ui://` page the client renders. */
export const uiExtension = 'io.modelcontextprotocol/ui';
export const appMimeType = 'text/html;profile=mcp-app';

/**
 * Whether the client of this connection declared the MCP Apps extension (in `initialize`,
 * `capabilities.extensions["io.modelcontextprotocol/ui"]` listing our MIME type, or none listed).
 * The one place that asks: the HTTP transport's per-request client capabilities plug in here.
 */
export function clientDeclaresUi(server: Server): boolean {
  const declared = server.getClientCapabilities()?.extensions?.[uiExtension] as { mimeTypes?: unknown } | undefined;
  if (!declared || typeof declared !== 'object') return false;
  const types = declared.mimeTypes;
  return !Array.isArray(types) || types.includes(appMimeType);
}
