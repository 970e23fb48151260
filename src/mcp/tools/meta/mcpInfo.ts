import { z } from 'zod';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { describeFamily } from '../../families';
import { defineTool } from '../../toolDefinition';
import { productName, version } from '../../../version';
import { serverLimits } from '../../limits';

const featureKey = (f: string): string => `enable${f[0].toUpperCase()}${f.slice(1)}`;

export const mcpInfoTool = defineTool({
  name: 'mcp_info',
  title: 'Server info',
  description: 'What this Agent Ledger server is: version, transports, enabled tool families (features), timings, safety rules and limits.',
  input: z.strictObject({}),
  output: z.object({
    server: z.object({ name: z.string(), version: z.string(), mcpVersion: z.string() }),
    transports: z.object({
      stdio: z.object({ enabled: z.boolean() }),
      http: z.object({
        enabled: z.boolean(),
        host: z.string().nullable(),
        port: z.number().nullable(),
        path: z.string().nullable(),
        enableJson: z.boolean(),
        stateless: z.boolean(),
      }),
    }),
    features: z.record(z.string(), z.boolean()),
    families: z.record(z.string(), z.object({ enabled: z.boolean(), tools: z.number(), description: z.string() })).describe('Each tool family: switched on or not, how many tools it has, and what it is for ("no tools yet" when it has none)'),
    timings: z.record(z.string(), z.number()),
    safety: z.record(z.string(), z.unknown()),
    limits: z.object({ maxInputBytes: z.number(), maxMessageBytes: z.number(), maxJsonDepth: z.number(), defaultTimeoutMs: z.number(), maxEventHistory: z.number() }),
    workspace: z.string(),
    store: z.object({ path: z.string(), seq: z.number() }),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (_args, { services, enabledFamilies, families }) => {
    const enabled = enabledFamilies();
    const features: Record<string, boolean> = { enableMcpIntrospection: true, enableResources: true };
    const switchable = families().filter((f) => f.name !== 'introspection');
    for (const f of switchable) features[featureKey(f.name)] = enabled.has(f.name);
    const familyInfo = Object.fromEntries(switchable.map((f) => [f.name, { enabled: enabled.has(f.name), tools: f.tools.length, description: describeFamily(f) }]));
    return {
      server: { name: productName, version, mcpVersion: LATEST_PROTOCOL_VERSION },
      transports: { stdio: { enabled: true }, http: { enabled: false, host: null, port: null, path: null, enableJson: false, stateless: false } },
      features,
      families: familyInfo,
      timings: { storePollIntervalMs: serverLimits.storePollMs, lockTimeoutMs: serverLimits.lockTimeoutMs },
      safety: {
        pathsConfinedToWorkspace: true,
        pathConfinement: 'real paths, symlinks included: a path (or a folder of .agent-ledger/ or .specs/) that resolves outside the workspace is refused on read and on write; worktrees go elsewhere only with --worktrees-dir',
        shellCommands: 'never: every launch command is built from quoted arguments',
        networkListeners: 'none',
        // A pipeline checkpoint waits for a person unless the server was started with --allow-agent-checkpoints.
        humanCheckpointsEnforced: !services.pipelines.allowsAgentCheckpoints,
        agentCheckpointDecisions: services.pipelines.allowsAgentCheckpoints,
      },
      limits: {
        maxInputBytes: serverLimits.maxInputBytes,
        maxMessageBytes: serverLimits.maxMessageBytes,
        maxJsonDepth: serverLimits.maxJsonDepth,
        defaultTimeoutMs: serverLimits.defaultTimeoutMs,
        maxEventHistory: serverLimits.maxEventHistory,
      },
      workspace: services.paths.workspace,
      store: { path: services.paths.dbPath, seq: services.engine.seq },
    };
  },
});
