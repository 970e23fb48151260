import type { Command } from 'commander';
import type { z } from 'zod';
import type { Services } from '../services';
import { parseInput } from '../core/contracts/inputValidation';
import type { CommonOptions } from './output';
import { printJson, printLines } from './output';
import { withServices } from './withServices';

export interface ToolCommand<S extends z.ZodObject, R> {
  /** The MCP tool this command is the CLI face of: its name prefixes validation messages. */
  tool: string;
  schema: S;
  readonly: boolean;
  /** The tool's arguments, built from the command line (undefined = not given). */
  args: Record<string, unknown>;
  run(services: Services, input: z.infer<S>): Promise<R> | R;
  /** Text output (it may read more from `services` to render); `--json` prints the result exactly as the MCP tool returns it. */
  format(result: R, services: Services): string[];
}

/**
 * Runs one command as its MCP tool would: the same zod schema (so the same refusals with the
 * same messages), the same service call, the same JSON with `--json`, and seed 002's exit codes.
 */
export function runToolCommand<S extends z.ZodObject, R>(cmd: Command, c: ToolCommand<S, R>): Promise<void> {
  const json = cmd.optsWithGlobals<CommonOptions>().json === true;
  return withServices(cmd, { readonly: c.readonly }, async (services) => {
    const args = Object.fromEntries(Object.entries(c.args).filter(([, v]) => v !== undefined));
    const result = await c.run(services, parseInput(c.tool, c.schema, args));
    if (json) printJson(result);
    else printLines(c.format(result, services));
  });
}

/** A number when the text is one (`--limit 5`), else the text itself, for zod to refuse as the MCP tool would. */
export function numberArg(text: string | undefined): number | string | undefined {
  if (text === undefined) return undefined;
  return /^[-+]?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text;
}

/** An id as typed: numeric text becomes the number seed 002 uses, any other shape stays text for the resolver. */
export function idArg(text: string | undefined): number | string | undefined {
  if (text === undefined) return undefined;
  return /^\d+$/.test(text.trim()) ? Number(text) : text;
}

/** Commander collector for repeatable options (`--artifact a --artifact b`). */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
