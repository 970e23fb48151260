import { LedgerError } from '../core/errors';
import { parseInput } from '../core/contracts/inputValidation';
import type { ToolContext, ToolDefinition } from './toolDefinition';
import { serverLimits } from './limits';
import { connectionIdentity, runWritingAs } from '../core/caller';

/**
 * Runs one tool call the same way for every face (the MCP server, the CLI): the size limit, the
 * contract's validation with its words (`invalid arguments for task_create: …`), then the
 * handler. Failures are thrown as LedgerErrors for the face to turn into an `isError` result or
 * an exit code. A context given as a function is asked for once the arguments are valid (the MCP
 * server opens its services then: bad input is refused the same way whether or not they open).
 * The handler runs as its caller (the agent logged in on this server, else the bearer token of
 * the HTTP request, else this connection), so what it writes counts against that caller's write
 * quota (core/limits/writeQuota.ts): clients sharing one HTTP server are charged apart.
 */
export async function invokeTool(
  tool: ToolDefinition,
  args: unknown,
  ctx: ToolContext | (() => Promise<ToolContext>),
): Promise<unknown> {
  const size = JSON.stringify(args ?? {}).length;
  if (size > serverLimits.maxInputBytes)
    throw new LedgerError(
      'ValidationError',
      `arguments are too large (${size} bytes; at most ${serverLimits.maxInputBytes})`,
    );
  const input = parseInput(tool.name, tool.input, args);
  const context = typeof ctx === 'function' ? await ctx() : ctx;
  return runWritingAs(quotaIdentity(context), () => tool.handler(input, context));
}

function quotaIdentity(context: ToolContext): string {
  const login = context.login?.identity();
  if (login !== undefined) return login;
  const caller = context.call?.caller;
  if (caller?.role === 'agent' && caller.agent !== null) return `agent:${caller.agent}`;
  if (caller?.tokenId != null) return `token:${caller.tokenId}`;
  return connectionIdentity();
}

/** The refusal of a tool name nobody serves, listing those that are. */
export function unknownTool(name: string, known: readonly string[]): LedgerError {
  return new LedgerError(
    'ValidationError',
    `unknown tool "${name}"; enabled tools: ${known.join(', ')}. Families are switched with --enable-<family> / --disable-<family>.`,
  );
}
