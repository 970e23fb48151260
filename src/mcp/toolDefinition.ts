import type { ServerLogin } from './serverLogin';
import type { z } from 'zod';
import type { Services } from '../app/services';
import type { PromptDefinition } from './prompts/promptDefinition';
import type { CallContext } from './callContext';

/** MCP tool annotations (hints for clients; they never replace the server's own checks). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** What a handler may use besides its arguments. */
export interface ToolContext {
  services: Services;
  /** Tools of the families switched on in this server (the CLI switches every family on). */
  enabledTools(): ReadonlyArray<CatalogTool>;
  enabledFamilies(): ReadonlySet<string>;
  /** Every family the server knows, switched on or not (to say which have no tools yet). */
  families(): ReadonlyArray<ToolFamily>;
  /** The session this server holds for an agent the runner launched (MCP server only). */
  login?: ServerLogin;
  /** Feature switches on in this server (features.ts); absent: every feature on (the CLI). */
  features?: ReadonlySet<string>;
  /** Who calls through which client (MCP server only; the CLI is the local user). */
  call?: CallContext;
  /** The HTTP transport this server listens on, as mcp_info reports it (absent: stdio). */
  http?: HttpTransportInfo;
}

/** The seed's `transports.http` of mcp_info. */
export interface HttpTransportInfo {
  host: string;
  port: number;
  path: string;
  /** JSON responses unless the client asks for a stream (false: SSE whenever the client accepts it). */
  enableJson: boolean;
  /** No sessions (true by default; `--stateful` keeps 2025-11-25 sessions). */
  stateless: boolean;
}

/**
 * One tool: its contract (the zod input and output schemas from core, every field described),
 * annotations, and a handler of a few lines that calls one service (STYLE.md habit 6). The MCP
 * server and the CLI both run it through `invokeTool`, so they validate the same way and call
 * the same code: the input is already validated against `input` when the handler runs.
 */
export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output?: O;
  annotations: ToolAnnotations;
  handler(args: z.infer<I>, ctx: ToolContext): Promise<z.infer<O>> | z.infer<O>;
}

/** A tool as the catalog lists it: with the family it belongs to. */
export type CatalogTool = ToolDefinition & { family: string };

/** Keeps the handler's argument typed by the schema (and its result checked against the output schema). */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(tool: ToolDefinition<I, O>): ToolDefinition {
  return tool as unknown as ToolDefinition;
}

/**
 * A tool family (seed 001's feature toggles): switched on or off as a whole, with `--enable-<name>`
 * / `--disable-<name>` and the `agentLedger.toolFamilies` setting. Each `tools/<family>/index.ts`
 * exports one, and `catalog.ts` lists them: a new family is a folder and one line there.
 */
export interface ToolFamily {
  /** The switch's name (`--enable-<name>`), lower case. */
  name: string;
  /** What the family is for, in a user's words (mcp_info, mcp_capabilities, CLI help, the setting). */
  description: string;
  /** On unless switched off; off families are opt-in. */
  enabledByDefault: boolean;
  /** How an agent should use these tools: part of the server's instructions when the family is on. */
  instructions?: string;
  tools: readonly ToolDefinition[];
  /** MCP prompts served while the family is on. */
  prompts?: readonly PromptDefinition[];
}

/**
 * A family without its tools: what `mcp serve` needs to parse its switches, say hello and list
 * the tools (with the build's listing, catalogListing.ts) before any tool's contract is built.
 * Each `tools/<family>/family.ts` exports one; its index.ts adds the tools.
 */
export type FamilyInfo = Omit<ToolFamily, 'tools' | 'prompts'>;
