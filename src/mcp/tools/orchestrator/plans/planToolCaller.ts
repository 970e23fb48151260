import type { ToolContext } from '../../../toolDefinition';
import { invokeTool } from '../../../invokeTool';
import { validationError } from '../../../../core/errors';

/** Tools a plan's tool leaf may not call: plans and transactions (a plan never runs plans), and waits. */
function callable(tool: { name: string; waits?: boolean }): boolean {
  return !/^(plan_|tx_|op_cancel$)/.test(tool.name) && tool.waits !== true;
}

/**
 * Lets this process call the ledger's own tools for a plan's tool leaves, as this server offers
 * them (the same validation and handler as a client's call), and says which tools those are.
 */
export function attachPlanToolCaller(ctx: ToolContext): (name: string) => boolean {
  const offered = () => ctx.enabledTools().filter(callable);
  ctx.services.planRuns.attachToolCaller(async (name, input) => {
    const tool = offered().find((t) => t.name === name);
    if (!tool) throw validationError(`${name} is not a tool a plan can call on this server`, { tool: name });
    return invokeTool(tool, input, ctx);
  });
  return (name) => offered().some((t) => t.name === name);
}
