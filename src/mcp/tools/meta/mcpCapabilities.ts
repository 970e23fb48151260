import { z } from 'zod';
import { describeFamily } from '../../families';
import { defineTool } from '../../toolDefinition';
import { serverLimits } from '../../limits';

export const mcpCapabilitiesTool = defineTool({
  name: 'mcp_capabilities',
  title: 'Server capabilities',
  description: 'Which tool namespaces (families) are enabled and a one-line summary of every tool they expose; a family without tools yet says so.',
  input: z.strictObject({}),
  output: z.object({
    namespaces: z.array(z.object({ name: z.string(), description: z.string() })),
    schemas: z.record(z.string(), z.object({ namespace: z.string(), summary: z.string() })),
    limits: z.object({ maxEventHistory: z.number() }),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (_args, { enabledTools, enabledFamilies, families }) => {
    const names = ['introspection', ...enabledFamilies()];
    const schemas: Record<string, { namespace: string; summary: string }> = {};
    for (const tool of enabledTools()) schemas[tool.name] = { namespace: tool.family, summary: tool.description.split(/(?<=\.)\s/)[0] };
    return {
      namespaces: families()
        .filter((f) => names.includes(f.name))
        .map((f) => ({ name: f.name, description: describeFamily(f) })),
      schemas,
      limits: { maxEventHistory: serverLimits.maxEventHistory },
    };
  },
});
