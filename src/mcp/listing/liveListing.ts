import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/server';
import type { ToolDefinition, ToolFamily } from '../toolDefinition';
import { loadCatalog } from '../catalog';
import type { ListedFacts, ToolListing } from './builtListing';
import { compactSchema } from './compactSchema';
import { portableSchema } from './portableSchema';

/** The listing computed from the contracts: what the build writes, and what a server run from sources lists. */
export async function liveListing(): Promise<ToolListing> {
  const catalog = await loadCatalog();
  return { families: [catalog.introspection, ...catalog.families].map(listedFamily) };
}

function listedFamily(family: ToolFamily): ToolListing['families'][number] {
  const facts: Record<string, ListedFacts> = {};
  for (const { name, feature, deprecated, audience, aliasOf } of family.tools) {
    const said = Object.entries({ feature, deprecated, audience, aliasOf }).filter(([, v]) => v !== undefined);
    if (said.length > 0) facts[name] = Object.fromEntries(said);
  }
  return {
    name: family.name,
    tools: family.tools.map(toListedTool),
    prompts: (family.prompts?.length ?? 0) > 0,
    facts,
  };
}

/**
 * One tool as tools/list gives it: its JSON schemas from the zod contract, read alike by draft-07
 * and 2020-12 validators (portableSchema.ts), the output schema also rewritten into an equivalent
 * one that a client compiles faster (compactSchema.ts).
 */
export function toListedTool(tool: ToolDefinition): Tool {
  const listed: Tool = {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: portableSchema(jsonSchema(tool.input, 'input')) as Tool['inputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
  };
  if (tool.output)
    listed.outputSchema = portableSchema(compactSchema(jsonSchema(tool.output, 'output'))) as Tool['outputSchema'];
  return listed;
}

/** A contract's JSON schema exactly as zod gives it (bench/listedSchemas.bench.ts compares the listed one with it). */
export function jsonSchema(schema: z.ZodObject, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
}
