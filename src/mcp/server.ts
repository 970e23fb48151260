import { z } from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { LazyServices } from './lazyServices';
import type { CatalogTool, ToolContext, ToolDefinition, ToolFamily } from './toolDefinition';
import { allFixedResources, allResourceTemplates, allTools, introspectionFamily, toolFamilies } from './catalog';
import { errorResult, okResult } from './toolResults';
import { invokeTool, unknownTool } from './invokeTool';
import { registerResourceHandlers } from './resourceHandlers';
import { registerPromptHandlers } from './prompts/promptHandlers';
import type { ServerLogin } from './serverLogin';
import { familiesExposed, isToolExposed, resolveFeatures } from './features';
import { productName, version } from '../version';

export interface ServerOptions {
  /** Names of the families switched on (see families.ts `resolveFamilies`). */
  families: ReadonlySet<string>;
  /** The agent login a runner prepared for this server (its launch ticket), if any. */
  login?: ServerLogin;
  /** Feature switches on (features.ts `resolveFeatures`); absent: those of the families switched on. */
  features?: ReadonlySet<string>;
  /** Called each time tools/list is answered (serve.ts opens the ledger then, while the client reads the list). */
  afterToolsListed?: () => void;
}

export interface LedgerServer {
  server: Server;
  /** Stops listening to the store. */
  dispose(): void;
}

/** What an agent reads first: how the enabled families are meant to be used. */
function instructionsFor(enabled: readonly ToolFamily[]): string {
  const parts = ['Agent Ledger is the shared ledger of the work done in this workspace.'];
  for (const f of enabled) if (f.instructions) parts.push(f.instructions);
  parts.push('Call mcp_capabilities to see every enabled tool.');
  return parts.join(' ');
}

/**
 * Builds the MCP server over a workspace's services, opened on first use (lazyServices.ts): the
 * tools are listed without them. The caller picks the transport.
 */
export function createServer(services: LazyServices, options: ServerOptions): LedgerServer {
  const on = options.features ?? resolveFeatures(options.families);
  const tools = allTools().filter((t) => t.family === introspectionFamily.name || isToolExposed(t, options.families, on));
  const byName = new Map(tools.map((t) => [t.name, t]));
  const templates = allResourceTemplates();
  const fixed = allFixedResources();
  const enabled = familiesExposed(toolFamilies, options.families, on);
  const prompts = enabled.flatMap((f) => f.prompts ?? []);
  const server = new Server(
    { name: productName, title: 'Agent Ledger', version },
    {
      capabilities: { tools: { listChanged: false }, resources: { subscribe: true, listChanged: true }, ...(prompts.length > 0 ? { prompts: { listChanged: false } } : {}) },
      instructions: instructionsFor(enabled),
    },
  );
  const base: Omit<ToolContext, 'services'> = { enabledTools: () => tools, enabledFamilies: () => options.families, families: () => [introspectionFamily, ...toolFamilies], login: options.login, features: on };
  const context = async (): Promise<ToolContext> => ({ ...base, services: await services.get() });
  // Computed on the first tools/list, not before the transport is up.
  let listed: Tool[] | undefined;

  server.setRequestHandler(ListToolsRequestSchema, () => {
    listed ??= tools.map(toListedTool);
    options.afterToolsListed?.();
    return { tools: listed };
  });
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(byName, context, request.params.name, request.params.arguments));

  const resources = registerResourceHandlers(server, services, templates, fixed);
  if (prompts.length > 0) registerPromptHandlers(server, services, prompts);
  return { server, dispose: () => resources.dispose() };
}

/** Every failure, expected or not, is an isError result: the SDK would turn a throw into -32603 with its message. */
async function callTool(byName: Map<string, CatalogTool>, context: () => Promise<ToolContext>, name: string, args: unknown): Promise<CallToolResult> {
  try {
    const tool = byName.get(name);
    if (!tool) throw unknownTool(name, [...byName.keys()]);
    return okResult(await invokeTool(tool, args, context));
  } catch (err) {
    return errorResult(err);
  }
}

function toListedTool(tool: ToolDefinition): Tool {
  const listed: Tool = {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input, 'input') as Tool['inputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
  };
  if (tool.output) listed.outputSchema = jsonSchema(tool.output, 'output') as Tool['outputSchema'];
  return listed;
}

function jsonSchema(schema: z.ZodObject, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}
