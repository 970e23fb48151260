/**
 * How the runner launches an agent, from the `launch:` block of its definition's front matter:
 *
 * ```yaml
 * launch:
 *   command: [my-agent, --mcp, "{mcp_config}", --, "{prompt}"]   # any other CLI; default: the agent's client
 *   output: text                  # claude-json | codex-jsonl | gemini-json | text
 *   prompt_on_stdin: false
 *   max_turns: 40
 *   wall_clock_minutes: 60        # default 60
 *   idle_minutes: 15              # default: no idle limit
 *   max_output_mb: 64             # default 64
 *   access: workspaceWrite        # readOnly | workspaceWrite | fullAccess
 * ```
 * A bad block is refused with the field named, so a typo never launches something else.
 */
import { z } from 'zod';
import type { AgentDefinition } from '../../agents/agentModel';
import { validationError } from '../../errors';
import { aiTypeOf } from '../pm/aiType';
import type { ClientAccess, ClientKind } from '../launch/clientLaunch';
import type { CommandTemplate } from '../launch/commandTemplate';
import { clientKinds } from '../launch/clients';
import type { ProcessLimits } from '../../ports/processes';

const launchBlock = z.strictObject({
  command: z.array(z.string().max(10_000)).min(1).max(200).optional(),
  output: z.enum(['claude-json', 'codex-jsonl', 'gemini-json', 'text']).optional(),
  prompt_on_stdin: z.boolean().optional(),
  max_turns: z.number().int().min(1).max(10_000).optional(),
  wall_clock_minutes: z
    .number()
    .positive()
    .max(7 * 24 * 60)
    .optional(),
  idle_minutes: z
    .number()
    .positive()
    .max(24 * 60)
    .optional(),
  max_output_mb: z.number().positive().max(10_000).optional(),
  access: z.enum(['readOnly', 'workspaceWrite', 'fullAccess']).optional(),
});

export interface LaunchProfile {
  client: ClientKind | CommandTemplate;
  model?: string;
  maxTurns?: number;
  access?: ClientAccess;
  limits: ProcessLimits;
}

export const defaultWallClockMinutes = 60;
export const defaultMaxOutputMb = 64;

/**
 * How the runner launches `agent`, from its definition; `asked` is what a queued task asked for
 * (`--client`, `--model`): another client runs with the model asked for, else its own default
 * (the agent's model names a model of the agent's own client).
 */
export function launchProfileOf(
  agent: AgentDefinition,
  asked: { client?: string | null; model?: string | null } = {},
): LaunchProfile {
  const parsed = launchBlock.safeParse(agent.config.launch ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw validationError(
      `agent ${agent.name}: launch.${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is not valid'} (in ${agent.file})`,
      { agent: agent.name },
    );
  }
  const block = parsed.data;
  let client: ClientKind | CommandTemplate = block.command
    ? {
        program: block.command[0],
        args: block.command.slice(1),
        output: block.output,
        promptOnStdin: block.prompt_on_stdin,
      }
    : aiTypeOf(agent.client);
  let model = agent.model ?? undefined;
  const other = clientKinds.find((k) => k === asked.client);
  if (other !== undefined && other !== clientName(client)) {
    client = other;
    model = undefined;
  }
  if (asked.model) model = asked.model;
  return {
    client,
    model,
    maxTurns: block.max_turns,
    access: block.access,
    limits: {
      wallClockMs: Math.round((block.wall_clock_minutes ?? defaultWallClockMinutes) * 60_000),
      idleMs: block.idle_minutes === undefined ? undefined : Math.round(block.idle_minutes * 60_000),
      maxOutputBytes: Math.round((block.max_output_mb ?? defaultMaxOutputMb) * 1024 * 1024),
    },
  };
}

/** The program a client starts: `claude`, `codex`, `gemini`, or a launch command's first word. */
export function clientName(client: ClientKind | CommandTemplate): string {
  return typeof client === 'string' ? client : client.program;
}
