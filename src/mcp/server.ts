import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { LazyServices } from './lazyServices';
import type { CatalogTool, FamilyInfo, ToolContext, ToolFamily } from './toolDefinition';
import type { LazyFamily } from './familyCatalog';
import type { ToolListing } from './listing/builtListing';
import { allFixedResources, allResourceTemplates } from './resources/resourceCatalog';
import { errorResult, okResult } from './toolResults';
import { invokeTool, unknownTool } from './invokeTool';
import { registerResourceHandlers } from './resourceHandlers';
import { registerPromptHandlers } from './prompts/promptHandlers';
import type { ServerLogin } from './serverLogin';
import { familiesExposed, isToolExposed, resolveFeatures } from './features';
import { productName, version } from '../app/version';
import { clientDeclaresUi } from './apps/clientSupport';
import { appTools, callAppTool, toolPages } from './apps/appTools';
import { appMimeType, appPageHtml, appPages, appResourceMeta } from './apps/appResources';
import { DecisionTickets } from './apps/decisionTickets';
import { unknownResource } from './resources/resourceErrors';

export interface ServerOptions {
  /** Names of the families switched on (see families.ts `resolveFamilies`). */
  families: ReadonlySet<string>;
  /** The agent login a runner prepared for this server (its launch ticket), if any. */
  login?: ServerLogin;
  /** Feature switches on (features.ts `resolveFeatures`); absent: those of the families switched on. */
  features?: ReadonlySet<string>;
  /** Called each time tools/list is answered (serve.ts opens the ledger then, while the client reads the list). */
  afterToolsListed?: () => void;
  /** Every family's tools as listed (the build's, or computed live from sources: listing/). */
  listing: ToolListing;
  /** Introspection, then the switchable families, loaded on first use (familyCatalog.ts). */
  catalog: readonly LazyFamily[];
}

export interface LedgerServer {
  server: Server;
  /** Stops listening to the store. */
  dispose(): void;
}

/** What an agent reads first: how the enabled families are meant to be used. */
function instructionsFor(enabled: readonly FamilyInfo[]): string {
  const parts = ['Agent Ledger is the shared ledger of the work done in this workspace.'];
  for (const f of enabled) if (f.instructions) parts.push(f.instructions);
  parts.push('Call mcp_capabilities to see every enabled tool.');
  return parts.join(' ');
}

/**
 * Builds the MCP server over a workspace's services, opened on first use (lazyServices.ts). The
 * tools are listed from `listing` and each family's contracts and handlers load with its first
 * call (docs/performance.md); families serving prompts load here. The caller picks the transport.
 */
export async function createServer(services: LazyServices, options: ServerOptions): Promise<LedgerServer> {
  const on = options.features ?? resolveFeatures(options.families);
  const [introspection, ...switchable] = options.listing.families;
  const exposed = (family: string, tool: string): boolean =>
    family === introspection.name || isToolExposed({ name: tool, family }, options.families, on);
  const listedTools: (Tool & { family: string })[] = options.listing.families.flatMap((f) =>
    f.tools.filter((t) => exposed(f.name, t.name)).map((t) => ({ ...t, family: f.name })),
  );
  const familyOf = new Map(listedTools.map((t) => [t.name, t.family]));
  const enabledNames = new Set(familiesExposed(switchable, options.families, on).map((f) => f.name));
  const lazy = new Map(options.catalog.map((f) => [f.info.name, f]));
  const enabled = switchable.filter((f) => enabledNames.has(f.name));
  const prompts = (await Promise.all(enabled.filter((f) => f.prompts).map((f) => lazy.get(f.name)!.load()))).flatMap(
    (f) => f.prompts ?? [],
  );
  const server = new Server(
    { name: productName, title: 'Agent Ledger', version },
    {
      capabilities: {
        tools: { listChanged: false },
        resources: { subscribe: true, listChanged: true },
        ...(prompts.length > 0 ? { prompts: { listChanged: false } } : {}),
        extensions: { 'io.modelcontextprotocol/ui': {} },
      },
      instructions: instructionsFor(enabled.map((f) => lazy.get(f.name)!.info)),
    },
  );

  const loading = new Map<string, Promise<ToolFamily>>();
  const load = (family: string): Promise<ToolFamily> => {
    let pending = loading.get(family);
    if (!pending) loading.set(family, (pending = lazy.get(family)!.load()));
    return pending;
  };
  /** Every family, loaded: what mcp_info and mcp_capabilities describe. */
  let whole: Promise<{ families: ToolFamily[]; tools: CatalogTool[] }> | undefined;
  const catalog = (): Promise<{ families: ToolFamily[]; tools: CatalogTool[] }> =>
    (whole ??= Promise.all(options.catalog.map((f) => load(f.info.name))).then((families) => ({
      families,
      tools: families.flatMap((f) =>
        f.tools.filter((t) => familyOf.get(t.name) === f.name).map((t) => ({ ...t, family: f.name })),
      ),
    })));
  const definition = async (name: string): Promise<{ tool: CatalogTool; context: () => Promise<ToolContext> }> => {
    const family = familyOf.get(name);
    if (family === undefined) throw unknownTool(name, [...familyOf.keys()]);
    const tool = (await load(family)).tools.find((t) => t.name === name);
    if (!tool) throw unknownTool(name, [...familyOf.keys()]);
    // Only the introspection tools read the rest of the catalog: they load every family.
    const rest = family === introspection.name ? await catalog() : { families: [], tools: [] };
    const base: Omit<ToolContext, 'services'> = {
      enabledTools: () => rest.tools,
      enabledFamilies: () => options.families,
      families: () => rest.families,
      login: options.login,
      features: on,
    };
    return { tool: { ...tool, family }, context: async () => ({ ...base, services: await services.get() }) };
  };

  // Listed as the listing holds them (without the family each tool belongs to).
  const listed: Tool[] = listedTools.map(({ family: _family, ...tool }) => tool);
  // MCP Apps (clientSupport.ts): only a client that declared the extension gets the pages, the
  // tools' _meta.ui and the tools only the pages call; every other client gets the tools as text.
  const withPages: Tool[] = [
    ...listed.map((t) =>
      toolPages[t.name] ? { ...t, _meta: { ...t._meta, ui: { resourceUri: toolPages[t.name] } } } : t,
    ),
    ...appTools,
  ];
  const tickets = new DecisionTickets();
  server.setRequestHandler(ListToolsRequestSchema, () => {
    options.afterToolsListed?.();
    return { tools: clientDeclaresUi(server) ? withPages : listed };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    if (clientDeclaresUi(server) && appTools.some((t) => t.name === name)) {
      try {
        return await callAppTool(name, args ?? {}, await services.get(), options.login, tickets);
      } catch (err) {
        return errorResult(err);
      }
    }
    return callTool(definition, name, args);
  });

  const resources = registerResourceHandlers(server, services, allResourceTemplates(), allFixedResources(), {
    list: () =>
      clientDeclaresUi(server)
        ? appPages.map((p) => ({
            uri: p.uri,
            name: p.name,
            title: p.title,
            description: p.description,
            mimeType: appMimeType,
            _meta: appResourceMeta,
          }))
        : [],
    read: (uri) => {
      if (!uri.startsWith('ui://')) return undefined;
      const html = clientDeclaresUi(server) ? appPageHtml(uri) : undefined;
      if (html === undefined) throw unknownResource(uri, []);
      return { mimeType: appMimeType, text: html, _meta: appResourceMeta };
    },
  });
  if (prompts.length > 0) registerPromptHandlers(server, services, prompts);
  return { server, dispose: () => resources.dispose() };
}

/** Every failure, expected or not, is an isError result: the SDK would turn a throw into -32603 with its message. */
async function callTool(
  definition: (name: string) => Promise<{ tool: CatalogTool; context: () => Promise<ToolContext> }>,
  name: string,
  args: unknown,
): Promise<CallToolResult> {
  try {
    const { tool, context } = await definition(name);
    return okResult(await invokeTool(tool, args, context));
  } catch (err) {
    return errorResult(err);
  }
}
