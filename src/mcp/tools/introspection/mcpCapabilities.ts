import { z } from 'zod';
import { describeFamily } from '../../families';
import { defineTool } from '../../toolDefinition';
import { features as featureList, resolveFeatures } from '../../features';

export const mcpCapabilitiesTool = defineTool({
  name: 'mcp_capabilities',
  family: 'introspection',
  title: 'Server capabilities',
  description:
    'Which tool namespaces (families, and the finer features such as resources or locks) are enabled and a one-line summary of every tool they expose; a family without tools yet says so.',
  input: z.strictObject({}),
  output: z.object({
    namespaces: z.array(z.object({ name: z.string(), description: z.string() })),
    schemas: z.record(z.string(), z.object({ namespace: z.string(), summary: z.string() })),
    limits: z.object({
      maxEventHistory: z.number(),
      maxEventAgeMs: z
        .number()
        .describe(
          'Coordination events older than this are dropped (retention by age, besides maxEventHistory by count)',
        ),
    }),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (_args, { services, enabledTools, enabledFamilies, families, features: on }) => {
    const exposedFamilies = new Set(enabledTools().map((t) => t.family));
    const names = ['introspection', ...enabledFamilies(), ...exposedFamilies];
    const featureSet = on ?? resolveFeatures(enabledFamilies());
    const schemas: Record<string, { namespace: string; summary: string }> = {};
    for (const tool of enabledTools())
      schemas[tool.name] = { namespace: tool.family, summary: tool.description.split(/(?<=\.)\s/)[0] };
    return {
      namespaces: [
        ...families()
          .filter((f) => names.includes(f.name))
          .map((f) => ({ name: f.name, description: describeFamily(f) })),
        ...featureList
          .filter((f) => featureSet.has(f.name))
          .map((f) => ({ name: f.name, description: `${f.description} (${f.family})` })),
      ],
      schemas,
      limits: {
        maxEventHistory: services.eventBus.retention.maxEvents,
        maxEventAgeMs: services.eventBus.retention.maxAgeMs,
      },
    };
  },
});
