import { z } from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Services } from '../services';
import { LedgerError } from '../core/errors';
import type { Family } from './families';
import type { ToolContext, ToolDefinition } from './toolDefinition';
import { allFixedResources, allResourceTemplates, allTools } from './catalog';
import { errorResult, okResult } from './toolResults';
import { invalidArguments } from '../core/contracts/inputValidation';
import { serverLimits } from './limits';
import { registerResourceHandlers } from './resourceHandlers';
import { productName, version } from '../version';

export interface ServerOptions {
  families: ReadonlySet<Family>;
}

export interface LedgerServer {
  server: Server;
  /** Stops listening to the store. */
  dispose(): void;
}

/** What an agent reads first: how the enabled families are meant to be used. */
const familyInstructions: Partial<Record<Family, string>> = {
  tracking:
    'Tracking: for each piece of work call start_workflow once, then start_task (it snapshots the working state), log_decision / log_issue / log_milestone sparingly, and complete_task at the end: it computes exactly which files the task changed from Git.',
  tasks:
    'Tasks: task_list / task_get / task_create / task_update manage the backlog; worker_command prepares a Git worktree for a task and returns the command that launches an agent in it; memory_preview gives the project decisions (Memory Bank) to follow.',
  pipeline:
    'Pipelines: pipeline_init, then pipeline_init_with_context, then loop on pipeline_next_action — execute exactly the action it returns and report back; never decide the next phase yourself. Human checkpoints are decided by a person in the editor or the CLI.',
};

function instructionsFor(families: ReadonlySet<Family>): string {
  const parts = ['Agent Ledger is the shared ledger of the work done in this workspace.'];
  for (const f of families) if (familyInstructions[f]) parts.push(familyInstructions[f]!);
  parts.push('Call mcp_capabilities to see every enabled tool.');
  return parts.join(' ');
}

/** Builds the MCP server over a workspace's services; the caller picks the transport. */
export function createServer(services: Services, options: ServerOptions): LedgerServer {
  const catalog = allTools();
  const tools = catalog.filter((t) => t.family === 'introspection' || options.families.has(t.family));
  const byName = new Map(tools.map((t) => [t.name, t]));
  const templates = allResourceTemplates();
  const fixed = allFixedResources();
  const server = new Server(
    { name: productName, title: 'Agent Ledger', version },
    { capabilities: { tools: { listChanged: false }, resources: { subscribe: true, listChanged: true } }, instructions: instructionsFor(options.families) },
  );
  const context: ToolContext = { services, enabledTools: () => tools, enabledFamilies: () => options.families, catalog: () => catalog };
  const listed = tools.map(toListedTool);

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(byName, context, request.params.name, request.params.arguments));

  const resources = registerResourceHandlers(server, services, templates, fixed);
  return { server, dispose: () => resources.dispose() };
}

async function callTool(byName: Map<string, ToolDefinition>, context: ToolContext, name: string, args: unknown): Promise<CallToolResult> {
  const tool = byName.get(name);
  if (!tool) {
    return errorResult(
      new LedgerError('ValidationError', `unknown tool "${name}"; enabled tools: ${[...byName.keys()].join(', ')}. Families are switched with --enable-<family> / --disable-<family>.`),
    );
  }
  // Every failure, expected or not, is an isError result: the SDK would turn a throw into -32603 with its message.
  try {
    const size = JSON.stringify(args ?? {}).length;
    if (size > serverLimits.maxInputBytes) {
      return errorResult(new LedgerError('ValidationError', `arguments are too large (${size} bytes; at most ${serverLimits.maxInputBytes})`));
    }
    const parsed = tool.input.safeParse(args ?? {});
    if (!parsed.success) {
      return errorResult(invalidArguments(name, tool.input, parsed.error.issues, args));
    }
    return okResult(await tool.handler(parsed.data, context));
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
