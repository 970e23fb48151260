import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { LazyServices } from './lazyServices';
import type { CatalogTool, FamilyInfo, ToolContext, ToolFamily } from './toolDefinition';
import type { ListedFacts, ToolListing } from './listing/builtListing';
import { allFixedResources, allResourceTemplates } from './resources/resourceCatalog';
import { errorResult, okResult } from './toolResults';
import { invokeTool, unknownTool } from './invokeTool';
import { registerResourceHandlers } from './resourceHandlers';
import { registerPromptHandlers } from './prompts/promptHandlers';
import type { ServerLogin } from './serverLogin';
import { familiesExposed, isToolExposed, isToolListed, resolveFeatures } from './features';
import type { ListingOptions } from './features';
import { productName, version } from '../app/version';

export interface ServerOptions {
  /** Names of the families switched on (see families.ts `resolveFamilies`). */
  enabled: ReadonlySet<string>;
  /** The agent login a runner prepared for this server (its launch ticket), if any. */
  login?: ServerLogin;
  /** Feature switches on (features.ts `resolveFeatures`); absent: those of the families switched on. */
  features?: ReadonlySet<string>;
  /** Called each time tools/list is answered (serve.ts opens the ledger then, while the client reads the list). */
  afterToolsListed?: () => void;
  /** Every family's tools as listed (the build's, or computed live from sources: listing/). */
  listing: ToolListing;
  /** Introspection, then the switchable families: what they are, without their tools (families.ts). */
  families: readonly FamilyInfo[];
  /** A family's tools, loaded with its first call (catalog.ts `loadFamily`). */
  load(family: FamilyInfo): Promise<ToolFamily>;
  /** Answered tools listed besides those for agents (deprecated ones, the runner's). */
  list?: ListingOptions;
}

export interface LedgerServer {
  server: Server;
  /** Stops listening to the store. */
  dispose(): void;
}

/**
 * What an agent reads first, and for Claude Code all it reads besides the tool names until it
 * searches for a tool: a line per enabled family saying which tools to use first and when, and the
 * other names that are answered without being listed.
 */
function instructionsFor(enabled: readonly FamilyInfo[], aliases: readonly ListedTool[]): string {
  const lines = [
    'Agent Ledger is the shared ledger of the work done in this workspace: tasks, decisions and the exact Git changes of each task.',
  ];
  for (const f of enabled) if (f.instructions) lines.push(f.instructions);
  for (const family of new Set(aliases.map((t) => t.family))) {
    const names = aliases.filter((t) => t.family === family).map((t) => `${t.name} (like ${t.aliasOf})`);
    lines.push(`Also answered, not listed, with the ${family} family's arguments and ids: ${names.join(', ')}.`);
  }
  lines.push('mcp_capabilities lists every enabled tool with a one-line summary.');
  return lines.join('\n');
}

/** A tool of the listing with the facts that decide whether it is exposed and listed. */
type ListedTool = Tool & ListedFacts & { family: string };

/**
 * Builds the MCP server over a workspace's services, opened on first use (lazyServices.ts). The
 * tools are listed from `listing` and each family's contracts and handlers load with its first
 * call (docs/performance.md); families serving prompts load here. The caller picks the transport.
 */
export async function createServer(services: LazyServices, options: ServerOptions): Promise<LedgerServer> {
  const on = options.features ?? resolveFeatures(options.enabled);
  const [introspection, ...switchable] = options.listing.families.map((f) => ({
    ...f,
    tools: f.tools.map((t): ListedTool => ({ ...t, ...f.facts[t.name], family: f.name })),
  }));
  const exposed = (tool: ListedTool): boolean =>
    tool.family === introspection.name || isToolExposed(tool, options.enabled, on);
  // Every exposed tool is answered; agents are listed one tool per action (features.ts isToolListed).
  const answered = [introspection, ...switchable].flatMap((f) => f.tools.filter(exposed));
  const familyOf = new Map(answered.map((t) => [t.name, t.family]));
  const answeredNames = new Set(familyOf.keys());
  const listedTools = answered.filter((t) => isToolListed(t, answeredNames, options.list));
  const listedNames = new Set(listedTools.map((t) => t.name));
  const aliases = answered.filter((t) => t.aliasOf !== undefined && !listedNames.has(t.name));
  const enabledNames = new Set(familiesExposed(switchable, options.enabled, on).map((f) => f.name));
  const infoOf = new Map(options.families.map((f) => [f.name, f]));
  const load = (family: string): Promise<ToolFamily> => options.load(infoOf.get(family)!);
  const enabled = switchable.filter((f) => enabledNames.has(f.name));
  const prompts = (await Promise.all(enabled.filter((f) => f.prompts).map((f) => load(f.name)))).flatMap(
    (f) => f.prompts ?? [],
  );
  const server = new Server(
    { name: productName, title: 'Agent Ledger', version },
    {
      capabilities: {
        tools: { listChanged: false },
        resources: { subscribe: true, listChanged: true },
        ...(prompts.length > 0 ? { prompts: { listChanged: false } } : {}),
      },
      instructions: instructionsFor(
        enabled.map((f) => infoOf.get(f.name)!),
        aliases,
      ),
    },
  );

  /** Every family, loaded: what mcp_info and mcp_capabilities describe. */
  let whole: Promise<{ families: ToolFamily[]; tools: CatalogTool[] }> | undefined;
  const catalog = (): Promise<{ families: ToolFamily[]; tools: CatalogTool[] }> =>
    (whole ??= Promise.all(options.families.map((f) => load(f.name))).then((families) => ({
      families,
      tools: families.flatMap((f) => f.tools.filter((t) => listedNames.has(t.name))),
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
      enabledFamilies: () => options.enabled,
      families: () => rest.families,
      login: options.login,
      features: on,
    };
    return { tool, context: async () => ({ ...base, services: await services.get() }) };
  };

  // Listed as the listing holds them (without the family each tool belongs to).
  const listed: Tool[] = listedTools.map(
    ({ family: _f, feature: _fe, deprecated: _d, audience: _a, aliasOf: _al, ...tool }) => tool,
  );
  server.setRequestHandler(ListToolsRequestSchema, () => {
    options.afterToolsListed?.();
    return { tools: listed };
  });
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const { name } = request.params;
    // The specification lists an unknown tool among the protocol errors (-32602), not the tool results.
    if (!familyOf.has(name))
      throw new ProtocolRefusal(ErrorCode.InvalidParams, unknownTool(name, [...familyOf.keys()]).message, {
        tool: name,
      });
    return callTool(definition, name, request.params.arguments);
  });

  const resources = registerResourceHandlers(server, services, allResourceTemplates(), allFixedResources());
  if (prompts.length > 0) registerPromptHandlers(server, services, prompts);
  return { server, dispose: () => resources.dispose() };
}

/** A request refused as a JSON-RPC error: the SDK answers with its code, message and data as they are. */
class ProtocolRefusal extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** Every failure of a tool that exists, expected or not, is an isError result: the SDK would turn a throw into -32603 with its message. */
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
