import type { CallContext } from '../callContext';
import type { CatalogTool } from '../toolDefinition';
import type { Services } from '../../app/services';
import type { Caller } from '../../core/caller';
import { LedgerError } from '../../core/errors';

/**
 * The tools of the runner (it claims and launches agent instances): an admin's, never an agent's
 * or a person's over HTTP. A local process (stdio, the CLI) may call everything, as before tokens.
 */
const adminTools: ReadonlySet<string> = new Set(['should_start', 'list_active_projects_with_agents', 'health_check']);

/** The refusal of a caller whose role may not do something: one message, whatever the reason. */
export function forbidden(what: string): LedgerError {
  return new LedgerError('Forbidden', `forbidden: this token may not ${what}`);
}

/**
 * Whether the caller's role lets it make this call: agent tokens act as their own agent, in their
 * own projects, and never make a person's decision; the runner's tools need an admin token.
 * Refused calls are refused before their arguments are checked, and say nothing about which part
 * of the token was wrong.
 */
export async function authorizeToolCall(
  tool: CatalogTool,
  args: unknown,
  call: CallContext,
  services: () => Promise<Services>,
): Promise<void> {
  const caller = call.caller;
  if (caller.role === 'local' || caller.role === 'admin') return;
  if (adminTools.has(tool.name)) throw forbidden(`call ${tool.name}`);
  if (caller.role !== 'agent') return;
  const a = (args ?? {}) as Record<string, unknown>;
  if (tool.name === 'pipeline_next_action' && a.user_response !== undefined)
    throw forbidden("answer a checkpoint: a person decides (an agent's token never does)");
  if (tool.name === 'authenticate' && a.agent_id !== undefined && a.agent_id !== caller.agent)
    throw forbidden('log in as another agent');
  if (a.project_id !== undefined && !(await inProjects(caller, a.project_id, services)))
    throw forbidden('act in this project');
}

async function inProjects(caller: Caller, ref: unknown, services: () => Promise<Services>): Promise<boolean> {
  if (caller.projects === null) return true;
  if (typeof ref !== 'string' && typeof ref !== 'number') return false;
  const key = await (await services()).projects.get(ref).then(
    (p) => p.project_id,
    () => undefined,
  );
  return key !== undefined && caller.projects.includes(key);
}
