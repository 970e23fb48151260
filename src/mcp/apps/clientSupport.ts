import type { ClientView } from '../callContext';

/** The MCP Apps extension: a tool's `_meta.ui.resourceUri` names a `ui://` page the client renders. */
export const uiExtension = 'io.modelcontextprotocol/ui';
export const appMimeType = 'text/html;profile=mcp-app';

/**
 * Whether the client of this connection declared the MCP Apps extension (in `initialize`, or in each
 * request's `_meta` on 2026-07-28: `capabilities.extensions["io.modelcontextprotocol/ui"]` listing our MIME type, or none listed).
 * The one place that asks: the HTTP transport's per-request client capabilities plug in here.
 */
export function clientDeclaresUi(client: ClientView): boolean {
  const extensions = client.capabilities.extensions as Record<string, unknown> | undefined;
  const declared = extensions?.[uiExtension] as { mimeTypes?: unknown } | undefined;
  if (!declared || typeof declared !== 'object') return false;
  const types = declared.mimeTypes;
  return !Array.isArray(types) || types.includes(appMimeType);
}
