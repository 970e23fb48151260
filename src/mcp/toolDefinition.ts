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
  /**
   * The person at the terminal: the CLI's user (the machine's). What a person does there — pause,
   * resume or cancel a plan run — is recorded as `person:<name>`. Absent in an MCP server.
   */
  person?: string;
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
  /** The family it belongs to: the folder tools/<family>/ it lives in (the catalog checks the two agree). */
  family: string;
  /**
   * The finer switch(es) that expose it without its whole family (features.ts): with several, every
   * one must be on (bb_batch_set needs blackboard and bulk). Without, the tool follows its family.
   */
  feature?: string | readonly string[];
  /** Its call waits for something to happen: it takes a bounded `wait_ms` (below the clients' 60 s). */
  waits?: boolean;
  /** It takes an `idempotency_key` and answers with `idempotent` / `idempotency_key`: a retry changes nothing twice. */
  idempotent?: boolean;
  /** Still answered, listed only with `--list-deprecated`: the tool to use instead. */
  deprecated?: string;
  /** Who calls it: agents (the default), or the runner only — answered, listed only with `--list-runner-tools`. */
  audience?: 'agents' | 'runner';
  /**
   * The listed tool it is another name of (the agent PM's names of the tasks family's tools, with
   * its own argument names): answered, and listed only while that tool is not exposed.
   */
  aliasOf?: string;
  title: string;
  description: string;
  input: I;
  output?: O;
  annotations: ToolAnnotations;
  handler(args: z.infer<I>, ctx: ToolContext): Promise<z.infer<O>> | z.infer<O>;
}

/** A tool as the catalog lists it (every tool names its family). */
export type CatalogTool = ToolDefinition;

/** Keeps the handler's argument typed by the schema (and its result checked against the output schema). */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(tool: ToolDefinition<I, O>): ToolDefinition {
  return tool as unknown as ToolDefinition;
}

/**
 * A tool family: switched on or off as a whole, with `--enable-<name>` / `--disable-<name>` and
 * the `agentLedger.toolFamilies` setting. Each `tools/<family>/index.ts` exports one as
 * `<family>Family`, and families.ts lists their infos: a new family is a folder and one line there.
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
  /** Its finer switches (`--enable-resources`…): each exposes the tools that name it without the whole family. */
  features?: readonly FeatureInfo[];
  tools: readonly ToolDefinition[];
  /** MCP prompts served while the family is on. */
  prompts?: readonly PromptDefinition[];
}

/**
 * A family without its tools: what `mcp serve` needs to parse its switches, say hello and list
 * the tools (with the build's listing, listing/builtListing.ts) before any tool's contract is
 * built, and what the extension needs to launch it. Plain data: each `tools/<family>/family.ts`
 * exports one (families.ts lists them); its index.ts adds the tools.
 */
export type FamilyInfo = Omit<ToolFamily, 'tools' | 'prompts'>;

/** A switch finer than a family; its tools say `feature: '<name>'`. */
export interface FeatureInfo {
  /** The switch: `--enable-<name>` / `--disable-<name>`. */
  name: string;
  /** Its name in `mcp_info.features`. */
  toggle: string;
  description: string;
}
