/**
 * How the runner launches an agent, from the `launch:` block of its definition (checked when the
 * file is read: agentLaunch.ts): the client or command template, turns, access and limits. What
 * the agent may do is its definition's `permissions:` block (agentPermissions.ts); an older
 * `launch.access`, when given, sets its level.
 */
import type { AgentDefinition } from '../../agents/agentModel';
import { aiTypeOf } from '../pm/aiType';
import type { ClientKind } from '../launch/clientLaunch';
import type { PermissionLevel } from '../../agents/agentPermissions';
import { levelOfAccess } from '../../agents/agentPermissions';
import type { CommandTemplate } from '../launch/commandTemplate';
import { clientKinds } from '../launch/clients';
import type { ProcessLimits } from '../../ports/processes';

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

/**
 * How the runner launches `agent`, from its definition; `asked` is what a queued task asked for
 * (`--client`, `--model`): another client runs with the model asked for, else its own default
 * (the agent's model names a model of the agent's own client).
 */
export function launchProfileOf(
  agent: AgentDefinition,
  asked: { client?: string | null; model?: string | null } = {},
): LaunchProfile {
  const block = agent.launch ?? {};
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
    accessLevel: block.access === undefined ? undefined : levelOfAccess(block.access),
    limits: {
      wallClockMs: Math.round((block.wall_clock_minutes ?? defaultWallClockMinutes) * 60_000),
      idleMs: block.idle_minutes === undefined ? undefined : Math.round(block.idle_minutes * 60_000),
      maxOutputBytes: Math.round((block.max_output_mb ?? defaultMaxOutputMb) * 1024 * 1024),
    },
  };
}

/**
 * What the runner will start for a task of `agent`: the client asked for (with the model asked for,
 * else that client's default: the agent's model names a model of its own client), else the agent's.
 * It reads the agent's launch block, so a broken one is refused when a task is queued (or a plan
 * run starts), not at launch; a plan's dry run shows it per task.
 */
export function launchedAs(
  agent: AgentDefinition,
  asked: { client?: string | null; model?: string | null } = {},
): { client: string; model: string | null } {
  const profile = launchProfileOf(agent, asked);
  return { client: clientName(profile.client), model: profile.model ?? null };
}

/** The program a client starts: `claude`, `codex`, `gemini`, or a launch command's first word. */
export function clientName(client: ClientKind | CommandTemplate): string {
  return typeof client === 'string' ? client : client.program;
}
