import type { z } from 'zod';
import type { Services } from '../../app/services';

/**
 * One MCP prompt: its arguments (a zod object of strings, checked like a tool's input) and the
 * text it renders from the ledger. A family lists its prompts; they are served while it is on.
 */
export interface PromptDefinition<A extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  args: A;
  render(args: z.infer<A>, services: Services): Promise<string>;
}

export function definePrompt<A extends z.ZodObject>(prompt: PromptDefinition<A>): PromptDefinition {
  return prompt as unknown as PromptDefinition;
}
