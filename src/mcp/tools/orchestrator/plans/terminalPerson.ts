import type { ToolContext } from '../../../toolDefinition';

/**
 * Runs a pause, resume or cancel as the person at the terminal when the CLI calls it
 * (`person:<user>`, as the editor's and the web board's buttons record theirs); an MCP call keeps
 * its caller (an agent pausing a run stays that agent).
 */
export function asTerminalPerson<T>(ctx: ToolContext, act: () => Promise<T>): Promise<T> {
  return ctx.person === undefined ? act() : ctx.services.planRuns.asPerson(ctx.person, act);
}
