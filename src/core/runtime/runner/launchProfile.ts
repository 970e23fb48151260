/**
 * How the runner launches an agent, from the `launch:` block of its definition (checked when the
 * file is read: agentLaunch.ts): the client or command template, turns, access and limits.
 */
import type { AgentDefinition } from '../../agents/agentModel';
import { aiTypeOf } from '../pm/aiType';
import type { ClientAccess, ClientKind } from '../launch/clientLaunch';
import type { CommandTemplate } from '../launch/commandTemplate';
import type { ProcessLimits } from '../../ports/processes';

export interface LaunchProfile {
  client: ClientKind | CommandTemplate;
  model?: string;
  maxTurns?: number;
  access?: ClientAccess;
  limits: ProcessLimits;
}

export const defaultWallClockMinutes = 60;
export const defaultMaxOutputMb = 64;

export function launchProfileOf(agent: AgentDefinition): LaunchProfile {
  const block = agent.launch ?? {};
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
    access: block.access,
    limits: {
      wallClockMs: Math.round((block.wall_clock_minutes ?? defaultWallClockMinutes) * 60_000),
      idleMs: block.idle_minutes === undefined ? undefined : Math.round(block.idle_minutes * 60_000),
      maxOutputBytes: Math.round((block.max_output_mb ?? defaultMaxOutputMb) * 1024 * 1024),
    },
  };
}
