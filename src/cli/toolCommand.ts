import type { Command } from 'commander';
import type { Services } from '../app/services';
import { thisMachine } from '../core/machine';
import { invokeTool, unknownTool } from '../mcp/invokeTool';
import type { CatalogTool, ToolContext } from '../mcp/toolDefinition';
import type * as Catalog from '../mcp/catalog';
import type { CommonOptions } from './output';
import { printJson, printLines } from './output';
import { withServices } from './withServices';

/**
 * The whole catalog, loaded when a command runs, not when the command line is parsed: building
 * every contract is what `mcp serve` and `--help` must not pay for (docs/performance.md).
 */
const catalog = (): Promise<typeof Catalog> => import('../mcp/catalog.js');

/** Every tool there is, by name: the CLI switches every family on. */
async function toolNamed(name: string): Promise<CatalogTool> {
  const { tools } = await (await catalog()).loadCatalog();
  const tool = tools.find((t) => t.name === name);
  if (!tool)
    throw unknownTool(
      name,
      tools.map((t) => t.name),
    );
  return tool;
}

/** `--idempotency-key` of the commands that create something (the tool's `idempotency_key`). */
export const idempotencyKeyHelp =
  'retry key: the same command again with the same key prints the first answer and creates nothing; other arguments with it are refused';

export interface ToolCommand<R> {
  /** The tool this command is the CLI face of. */
  tool: string;
  /** The tool's arguments, built from the command line (undefined = not given). */
  args: Record<string, unknown>;
  /** Text output (it may read more from `services` to render); `--json` prints the result exactly as the MCP tool returns it. */
  format(result: R, services: Services): string[] | Promise<string[]>;
  /** false: open the ledger for writing although the tool is read-only (its reads may repair the store). */
  readonly?: boolean;
  /** Runs after the result is printed, while the ledger is still open. */
  then?(result: R, services: Services, json: boolean): Promise<void>;
}

/**
 * Runs one command as its MCP tool: the very same tool definition through `invokeTool` (so the
 * same refusals with the same messages, the same service call, the same JSON with `--json`),
 * and the task-management contract's exit codes. A read-only tool opens the ledger read-only: it never creates
 * `.agent-ledger/`.
 */
export async function runToolCommand<R>(cmd: Command, c: ToolCommand<R>): Promise<void> {
  const json = cmd.optsWithGlobals<CommonOptions>().json === true;
  const tool = await toolNamed(c.tool);
  const readonly = c.readonly ?? tool.annotations.readOnlyHint === true;
  return withServices(cmd, { readonly, sessionsLiveInParent: true }, async (services) => {
    const result = (await callTool(services, tool, c.args)) as R;
    if (json) printJson(result);
    else printLines(await c.format(result, services));
    await c.then?.(result, services, json);
  });
}

/** One tool call with the command line's arguments (undefined ones left out, as an agent would). */
export async function callTool(
  services: Services,
  tool: CatalogTool | string,
  args: Record<string, unknown>,
): Promise<unknown> {
  const definition = typeof tool === 'string' ? await toolNamed(tool) : tool;
  const given = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
  return invokeTool(definition, given, await cliContext(services));
}

async function cliContext(services: Services): Promise<ToolContext> {
  const { introspection, families, tools } = await (await catalog()).loadCatalog();
  return {
    services,
    person: thisMachine().user,
    enabledTools: () => tools,
    enabledFamilies: () => new Set(families.map((f) => f.name)),
    families: () => [introspection, ...families],
  };
}

/** A number when the text is one (`--limit 5`), else the text itself, for zod to refuse as the MCP tool would. */
export function numberArg(text: string | undefined): number | string | undefined {
  if (text === undefined) return undefined;
  return /^[-+]?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text;
}

/** An id as typed: numeric text becomes the number the task-management contract uses, any other shape stays text for the resolver. */
export function idArg(text: string | undefined): number | string | undefined {
  if (text === undefined) return undefined;
  return /^\d+$/.test(text.trim()) ? Number(text) : text;
}

/** Commander collector for repeatable options (`--artifact a --artifact b`). */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
