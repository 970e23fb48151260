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
 *   access: workspaceWrite        # older form of permissions.level: readOnly (read) | workspaceWrite (edit) | fullAccess (full)
 * ```
 * What the agent may do is its definition's `permissions:` block (agentPermissions.ts); an
 * older `launch.access`, when given, sets its level.
 * A bad block is refused with the field named, so a typo never launches something else.
 */
import { z } from 'zod';
import type { AgentDefinition } from '../../agents/agentModel';
import { validationError } from '../../errors';
import { aiTypeOf } from '../pm/aiType';
import type { ClientKind } from '../launch/clientLaunch';
import type { PermissionLevel } from '../../agents/agentPermissions';
import { levelOfAccess } from '../../agents/agentPermissions';
import type { CommandTemplate } from '../launch/commandTemplate';
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
  /** The level `launch.access` sets, when given. */
  accessLevel?: PermissionLevel;
  limits: ProcessLimits;
}

export const defaultWallClockMinutes = 60;
export const defaultMaxOutputMb = 64;

export function launchProfileOf(agent: AgentDefinition): LaunchProfile {
  const parsed = launchBlock.safeParse(agent.config.launch ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw validationError(
      `agent ${agent.name}: launch.${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is not valid'} (in ${agent.file})`,
      { agent: agent.name },
    );
  }
  const block = parsed.data;
  const client: ClientKind | CommandTemplate = block.command
    ? {
        program: block.command[0],
        args: block.command.slice(1),
        output: block.output,
        promptOnStdin: block.prompt_on_stdin,
      }
    : aiTypeOf(agent.client);
  return {
    client,
    model: agent.model ?? undefined,
    maxTurns: block.max_turns,
    accessLevel: block.access === undefined ? undefined : levelOfAccess(block.access),
    limits: {
      wallClockMs: Math.round((block.wall_clock_minutes ?? defaultWallClockMinutes) * 60_000),
      idleMs: block.idle_minutes === undefined ? undefined : Math.round(block.idle_minutes * 60_000),
      maxOutputBytes: Math.round((block.max_output_mb ?? defaultMaxOutputMb) * 1024 * 1024),
    },
  };
}
