import { Argument, Option } from 'commander';
import type { Command } from 'commander';
import type { Services } from '../app/services';
import type { CatalogTool } from '../mcp/toolDefinition';
import { collect, runToolCommand } from './toolCommand';
import type { ToolField } from './toolFields';
import { fieldValue, flagName, toolFields } from './toolFields';
import { resultLines } from './resultText';

/**
 * One row of a declarative command table: `agent-ledger <group> <name>` runs `tool`. Its options
 * come from the tool's input schema (toolFields.ts); the row only says which fields are
 * positional and, where a generic rendering would be poor, how to print the result.
 */
export interface ToolSubcommand {
  name: string;
  tool: string;
  /** Fields taken as positional arguments, in order (a list field may come last: `[args...]`). */
  args?: readonly string[];
  /** What the command does, in a line (default: the tool's title). */
  summary?: string;
  /** A field's own reading of its text (before the tool's contract checks it), e.g. `latest` → `{ latest: true }`. */
  parse?: Readonly<Record<string, (text: string) => unknown>>;
  /** Text output; default: the result as indented YAML, every string inert. */
  format?(result: never): string[];
  /** Opens the ledger for writing although the tool is read-only (its reads repair the store). */
  writes?: boolean;
  /** Runs after the result is printed, with the ledger still open (e.g. keeping a started child alive). */
  then?(result: never, services: Services, json: boolean): Promise<void>;
  /** Help text after the options (examples, caveats). */
  help?: string;
}

export interface ToolGroup {
  /** `agent-ledger <name> …` (its one-line description is in commandTable.ts, which `--help` reads without loading the group). */
  name: string;
  commands: readonly ToolSubcommand[];
}

/**
 * The subcommands of one group, each reading its tool's schema: loaded with the catalog only
 * when the command line names the group (commandTable.ts), so every other command, and `mcp
 * serve` above all, starts without building some forty subcommands or any tool contract.
 */
export async function toolGroupCommands(group: ToolGroup): Promise<(cmd: Command) => void> {
  const { loadCatalog } = await import('../mcp/catalog.js');
  const tools = new Map((await loadCatalog()).tools.map((t) => [t.name, t]));
  return (cmd) => {
    for (const sub of group.commands) {
      const tool = tools.get(sub.tool);
      if (!tool) throw new Error(`CLI table: no tool ${sub.tool} for ${group.name} ${sub.name}`);
      addSubcommand(cmd, sub, tool);
    }
  };
}

function addSubcommand(parent: Command, sub: ToolSubcommand, tool: CatalogTool): void {
  const fields = toolFields(tool.input);
  const positional = (sub.args ?? []).map((name) => {
    const field = fields.find((f) => f.name === name);
    if (!field) throw new Error(`CLI table: ${tool.name} has no field ${name}`);
    return field;
  });
  const cmd = parent.command(sub.name).description(`${sub.summary ?? tool.title} (${tool.name})`);
  for (const field of positional) cmd.addArgument(argumentOf(field));
  const flagged = fields.filter((f) => !positional.includes(f));
  const optionKeys = new Map<string, string>();
  for (const field of flagged)
    for (const option of optionsOf(field)) {
      cmd.addOption(option);
      optionKeys.set(field.name, option.attributeName());
    }
  cmd.addHelpText('after', `\n${tool.description}${sub.help ? `\n\n${sub.help}` : ''}`);
  cmd.action((...params: unknown[]) => {
    const command = params[params.length - 1] as Command;
    const opts = command.opts<Record<string, unknown>>();
    const raw: Record<string, unknown> = {};
    positional.forEach((field, i) => (raw[field.name] = params[i]));
    for (const field of flagged) raw[field.name] = opts[optionKeys.get(field.name) ?? field.name];
    const args: Record<string, unknown> = {};
    for (const field of fields) {
      const value = raw[field.name];
      const own = sub.parse?.[field.name];
      args[field.name] =
        value !== undefined && own && typeof value === 'string' ? own(value) : fieldValue(field, value);
    }
    return runToolCommand(command, {
      tool: tool.name,
      args,
      readonly: sub.writes ? false : undefined,
      format: (result: unknown) => (sub.format ? sub.format(result as never) : resultLines(result)),
      then: sub.then
        ? (result: unknown, services: Services, json: boolean) => sub.then!(result as never, services, json)
        : undefined,
    });
  });
}

function describe(field: ToolField): string {
  const choices = field.choices?.length ? ` (${field.choices.join(', ')})` : '';
  const json =
    field.kind === 'json' ? ' [JSON; - reads standard input]' : field.kind === 'value' ? ' [JSON, or plain text]' : '';
  return `${field.description}${choices}${json}`;
}

function argumentOf(field: ToolField): Argument {
  const name = `${field.name}${field.kind === 'list' ? '...' : ''}`;
  return new Argument(field.required ? `<${name}>` : `[${name}]`, describe(field));
}

function optionsOf(field: ToolField): Option[] {
  const flag = `--${flagName(field.name)}`;
  const help = `${describe(field)}${field.required ? ' (required)' : ''}`;
  switch (field.kind) {
    case 'boolean':
      // Both forms, so a field left out stays out and the tool's own default applies.
      return [new Option(flag, help), new Option(`--no-${flagName(field.name)}`, `sets ${field.name} to false`)];
    case 'list':
      return [new Option(`${flag} <value>`, `${help} (repeat for more)`).argParser(collect)];
    default:
      return [new Option(`${flag} <value>`, help)];
  }
}
