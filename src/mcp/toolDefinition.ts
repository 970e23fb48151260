import type { z } from 'zod';
import type { Services } from '../services';
import type { Family } from './families';

/** MCP tool annotations (hints for clients; they never replace the server's own checks). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolContext {
  services: Services;
  /** Tools of the families enabled in this server, for introspection. */
  enabledTools(): ReadonlyArray<ToolDefinition>;
  enabledFamilies(): ReadonlySet<Family>;
  /** Every tool the server knows, enabled or not (to say which families have none yet). */
  catalog(): ReadonlyArray<ToolDefinition>;
}

/**
 * One MCP tool: schema (every field described), annotations, and a handler of a few lines
 * that calls one service (STYLE.md habit 6). The input is already validated against
 * `input` when the handler runs.
 */
export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  family: Family | 'introspection';
  title: string;
  description: string;
  input: I;
  output?: O;
  annotations: ToolAnnotations;
  handler(args: z.infer<I>, ctx: ToolContext): Promise<z.infer<O>> | z.infer<O>;
}

/** Keeps the handler's argument typed by the schema. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(tool: ToolDefinition<I, O>): ToolDefinition {
  return tool as unknown as ToolDefinition;
}
