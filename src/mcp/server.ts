import { Server } from '@modelcontextprotocol/server';
import type { CallToolResult, ServerCapabilities, Tool } from '@modelcontextprotocol/server';
import type { LazyServices } from './lazyServices';
import type { CatalogTool, FamilyInfo, HttpTransportInfo, ToolContext, ToolFamily } from './toolDefinition';
import type { ListedFacts, ToolListing } from './listing/builtListing';
import { allFixedResources, allResourceTemplates } from './resources/resourceCatalog';
import { errorResult, okResult } from './toolResults';
import { invokeTool, unknownTool } from './invokeTool';
import { followResources, registerResourceHandlers, resourceCatalog } from './resourceHandlers';
import type { ResourceSink } from './resourceNotifier';
import { registerPromptHandlers } from './prompts/promptHandlers';
import type { ServerLogin } from './serverLogin';
import { familiesExposed, isToolExposed, isToolListed, resolveFeatures } from './features';
import type { ListingOptions } from './features';
import { productName, version } from '../app/version';
import type { CallContext, McpTransportKind } from './callContext';
import { callContextOf } from './callContext';
import { runAsCaller } from '../core/caller';
import type { Disposable } from '../core/emitter';
import { authorizeToolCall } from './access/toolAccess';
import type { CheckpointGates } from './gates/checkpointGates';
import { clientDeclaresUi, uiExtension } from './apps/clientSupport';
import { appTools, callAppTool, toolPages } from './apps/appTools';
import { appMimeType, appPageHtml, appPages, appResourceMeta } from './apps/appResources';
import { DecisionTickets } from './apps/decisionTickets';
import { unknownResource } from './resources/resourceErrors';

export interface ServerOptions {
  /** Names of the families switched on (see families.ts `resolveFamilies`). */
  enabled: ReadonlySet<string>;
  /** The agent login of a call: the runner's launch ticket of a stdio server, a launch token over HTTP. */
  loginOf?: (call: CallContext) => ServerLogin | undefined;
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
  /** How the clients reach this server. */
  transport: McpTransportKind;
  /** What mcp_info reports of the HTTP transport (absent: stdio only). */
  http?: HttpTransportInfo;
  /** Pipeline checkpoints asked of the person through the client (gates/checkpointGates.ts). */
  gates?: CheckpointGates;
}

/** What one SDK instance serves. */
export interface InstanceOptions {
  /** The protocol revision the serving entry picked (2026-07-28 `modern`, 2025-11-25 `legacy`). */
  era: 'legacy' | 'modern';
  /**
   * `connection`: one client for a while (a stdio process, a `--stateful` HTTP session): this
   * instance serves its resource subscriptions. `request`: one HTTP request (the HTTP layer
   * follows resource changes once for every listen stream: `followResources`).
   */
  lifetime: 'connection' | 'request';
}

export interface LedgerServer {
  /** A fresh SDK server over the shared state: per stdio connection, HTTP request or HTTP session. */
  instance(options: InstanceOptions): Server;
  /** Sends the ledger's resource changes to a sink that is not an instance (the HTTP listen streams). */
  followResources(sink: ResourceSink): Disposable;
  /** The server's instructions (what an agent reads first). */
  readonly instructions: string;
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
 * Prepares the MCP server over a workspace's services, opened on first use (lazyServices.ts). The
 * tools are listed from `listing` and each family's contracts and handlers load with its first
 * call (docs/performance.md); families serving prompts load here. Everything is built once; each
 * `instance()` is a low-level SDK `Server` with our own listing, dispatch and `isError` results,
 * cheap enough to make per HTTP request. The caller picks the transport (serve.ts, http/).
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
  const instructions = instructionsFor(
    enabled.map((f) => infoOf.get(f.name)!),
    aliases,
  );

  /** Every family, loaded: what mcp_info and mcp_capabilities describe. */
  let whole: Promise<{ families: ToolFamily[]; tools: CatalogTool[] }> | undefined;
  const catalog = (): Promise<{ families: ToolFamily[]; tools: CatalogTool[] }> =>
    (whole ??= Promise.all(options.families.map((f) => load(f.name))).then((families) => ({
      families,
      tools: families.flatMap((f) => f.tools.filter((t) => listedNames.has(t.name))),
    })));
  const definition: ToolDefinitionLookup = async (name, call) => {
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
      login: options.loginOf?.(call),
      features: on,
      call,
      http: options.http,
    };
    return { tool, context: async () => ({ ...base, services: await services.get() }) };
  };

  // Listed as the listing holds them (without the family each tool belongs to), in the same order every time.
  const listed: Tool[] = listedTools.map(
    ({ family: _f, feature: _fe, deprecated: _d, audience: _a, aliasOf: _al, ...tool }) => tool,
  );
  // MCP Apps (clientSupport.ts): only a client that declared the extension gets the pages, the
  // tools' _meta.ui and the tools only the pages call; every other client gets the tools as text.
  const withPages: Tool[] = [
    ...listed.map((t) =>
      toolPages[t.name] ? { ...t, _meta: { ...t._meta, ui: { resourceUri: toolPages[t.name] } } } : t,
    ),
    ...appTools,
  ];
  const tickets = new DecisionTickets();
  const resources = resourceCatalog(services, allResourceTemplates(), allFixedResources());
  const capabilities = (o: InstanceOptions): ServerCapabilities => ({
    tools: { listChanged: false },
    // A stateless 2025-11-25 HTTP request has no stream to send changes on.
    resources:
      o.era === 'legacy' && o.lifetime === 'request'
        ? { subscribe: false, listChanged: false }
        : { subscribe: true, listChanged: true },
    ...(prompts.length > 0 ? { prompts: { listChanged: false } } : {}),
    extensions: { [uiExtension]: {} },
  });

  const instance = (o: InstanceOptions): Server => {
    const server = new Server(
      { name: productName, title: 'Agent Ledger', version },
      {
        capabilities: capabilities(o),
        instructions,
        ...(options.gates ? { requestState: { verify: options.gates.verifyState } } : {}),
      },
    );
    server.setRequestHandler('tools/list', (_request, ctx) => {
      options.afterToolsListed?.();
      return { tools: clientDeclaresUi(callContextOf(server, ctx, options.transport).client) ? withPages : listed };
    });
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const call = callContextOf(server, ctx, options.transport);
      const { name } = request.params;
      if (clientDeclaresUi(call.client) && appTools.some((t) => t.name === name)) {
        try {
          return await callAppTool(
            name,
            request.params.arguments ?? {},
            await services.get(),
            options.loginOf?.(call),
            tickets,
          );
        } catch (err) {
          return errorResult(err);
        }
      }
      // The specification lists an unknown tool among the protocol errors (-32602), not the tool results.
      if (!familyOf.has(name))
        throw new ProtocolRefusal(-32602, unknownTool(name, [...familyOf.keys()]).message, { tool: name });
      return runAsCaller(call.caller, () =>
        options.gates
          ? options.gates.callTool(request.params, call, ctx, (args) =>
              callTool(definition, request.params.name, args, call),
            )
          : callTool(definition, request.params.name, request.params.arguments, call),
      );
    });
    const followed = registerResourceHandlers(
      server,
      services,
      resources,
      o.lifetime === 'connection' ? { everyUri: o.era === 'modern' } : undefined,
      {
        list: (ctx) =>
          clientDeclaresUi(callContextOf(server, ctx, options.transport).client)
            ? appPages.map((p) => ({
                uri: p.uri,
                name: p.name,
                title: p.title,
                description: p.description,
                mimeType: appMimeType,
                _meta: appResourceMeta,
              }))
            : [],
        read: (uri, ctx) => {
          if (!uri.startsWith('ui://')) return undefined;
          const ui = clientDeclaresUi(callContextOf(server, ctx, options.transport).client);
          const html = ui ? appPageHtml(uri) : undefined;
          if (html === undefined) throw unknownResource(uri, []);
          return { mimeType: appMimeType, text: html, _meta: appResourceMeta };
        },
      },
    );
    if (prompts.length > 0) registerPromptHandlers(server, services, prompts);
    const previous = server.onclose;
    server.onclose = () => {
      followed.dispose();
      previous?.();
    };
    return server;
  };
  return {
    instance,
    followResources: (sink) => followResources(services, resources, sink),
    instructions,
  };
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

type ToolDefinitionLookup = (
  name: string,
  call: CallContext,
) => Promise<{ tool: CatalogTool; context: () => Promise<ToolContext> }>;

/** Every failure, expected or not, is an isError result: the SDK would turn a throw into -32603 with its message. */
export async function callTool(
  definition: ToolDefinitionLookup,
  name: string,
  args: unknown,
  call: CallContext,
): Promise<CallToolResult> {
  try {
    const { tool, context } = await definition(name, call);
    await authorizeToolCall(tool, args, call, async () => (await context()).services);
    return okResult(await invokeTool(tool, args, context));
  } catch (err) {
    return errorResult(err);
  }
}
