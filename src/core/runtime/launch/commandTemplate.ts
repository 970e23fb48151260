/**
 * Any other agent CLI, from a template in the agent's definition: a program and an argument
 * list with placeholders substituted inside each argument. The template is never joined into a
 * command line, so a prompt or path full of `$(…)`, quotes or newlines stays one argument.
 */
import * as path from 'node:path';
import { ProcessError } from '../processErrors';
import type { ClientLaunchInput, LaunchFile, LaunchPlan, OutputFormat } from './clientLaunch';
import { checkServers, mcpServersJson, promptWithPreamble } from './clientLaunch';

export interface CommandTemplate {
  /** A bare program name or an absolute path; no placeholder. */
  program: string;
  /**
   * Arguments; each may hold `{prompt}`, `{mcp_config}` (path of an `{ "mcpServers": … }` JSON
   * file written for the run), `{cwd}`, `{model}`. `{{` and `}}` stand for literal braces.
   */
  args: readonly string[];
  /** What the program prints (default `text`: no tokens or cost known). */
  output?: OutputFormat;
  /** Send the prompt on stdin instead of (or besides) a `{prompt}` argument. */
  promptOnStdin?: boolean;
}

export const templatePlaceholders = ['prompt', 'mcp_config', 'cwd', 'model'] as const;
type Placeholder = (typeof templatePlaceholders)[number];

/** Replaces placeholders in one argument; refuses unknown ones (a typo must not launch). */
export function substitute(arg: string, values: Readonly<Record<Placeholder, string>>): string {
  return arg.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (match, name: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    if (!(templatePlaceholders as readonly string[]).includes(name ?? '')) {
      throw new ProcessError(
        'invalidLaunch',
        `Unknown placeholder ${match} in a command template; use ${templatePlaceholders.map((p) => `{${p}}`).join(', ')}.`,
        { placeholder: match },
      );
    }
    return values[name as Placeholder];
  });
}

/** The launch of a command template. */
export function templateLaunch(template: CommandTemplate, input: ClientLaunchInput): LaunchPlan {
  if (/[{}]/.test(template.program))
    throw new ProcessError('invalidLaunch', 'The program of a command template cannot hold placeholders.', {
      program: template.program,
    });
  const servers = input.mcpServers ?? [];
  checkServers(servers);
  const mcpConfig = path.join(input.configDir, 'mcp.json');
  const prompt = promptWithPreamble(input);
  const values = { prompt, mcp_config: mcpConfig, cwd: input.cwd, model: input.model ?? '' };
  const args = template.args.map((arg) => substitute(arg, values));
  const files: LaunchFile[] = template.args.some((a) => a.includes('{mcp_config}'))
    ? [{ path: mcpConfig, content: `${JSON.stringify(mcpServersJson(servers), null, 2)}\n` }]
    : [];
  return {
    client: 'command',
    program: template.program,
    args,
    cwd: input.cwd,
    env: {},
    files,
    homes: [],
    stdin: template.promptOnStdin ? { kind: 'text', text: prompt } : { kind: 'ignore' },
    output: template.output ?? 'text',
  };
}
