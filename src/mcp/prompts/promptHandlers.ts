import { ProtocolError, ProtocolErrorCode as ErrorCode } from '@modelcontextprotocol/server';
import type { Server } from '@modelcontextprotocol/server';
import type { LazyServices } from '../lazyServices';
import { LedgerError } from '../../core/errors';
import { parseInput } from '../../core/contracts/inputValidation';
import type { PromptDefinition } from './promptDefinition';

/** The arguments of a prompt as MCP lists them, from its zod object (every argument is a string). */
function argumentsOf(p: PromptDefinition): { name: string; description?: string; required: boolean }[] {
  return Object.entries(p.args.shape).map(([name, schema]) => {
    const s = schema as { description?: string; isOptional(): boolean };
    return { name, description: s.description, required: !s.isOptional() };
  });
}

/** prompts/list and prompts/get. A bad or missing argument, an unknown prompt or id: -32602 with the reason in data. */
export function registerPromptHandlers(
  server: Server,
  services: LazyServices,
  prompts: readonly PromptDefinition[],
): void {
  server.setRequestHandler('prompts/list', () => ({
    prompts: prompts.map((p) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      arguments: argumentsOf(p),
    })),
  }));
  server.setRequestHandler('prompts/get', async (request) => {
    const prompt = prompts.find((p) => p.name === request.params.name);
    if (!prompt)
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `unknown prompt ${request.params.name}: use one of ${prompts.map((p) => p.name).join(', ')}`,
        { reason: 'UnknownPrompt' },
      );
    try {
      const args = parseInput(prompt.name, prompt.args, request.params.arguments ?? {});
      const text = await prompt.render(args, await services.get());
      return {
        description: prompt.description,
        messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
      };
    } catch (err) {
      if (LedgerError.is(err))
        throw new ProtocolError(ErrorCode.InvalidParams, err.message, { reason: err.code, ...(err.data ?? {}) });
      throw err;
    }
  });
}
