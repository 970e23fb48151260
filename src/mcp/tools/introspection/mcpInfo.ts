import { z } from 'zod';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { modernProtocolVersion } from '../../protocolVersions';
import { isLoopback } from '../../http/httpAddress';
import { ledgerLimitsOutput } from '../../../core/limits/limitsContracts';
import { describeFamily } from '../../families';
import { defineTool } from '../../toolDefinition';
import { productName, version } from '../../../app/version';
import { serverLimits } from '../../limits';
import {
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_WALLCLOCK_MS,
  MAX_RUNNING_CHILDREN,
} from '../../../core/runtime/children/childLimits';
import { features as featureList, resolveFeatures } from '../../features';
import { idempotencySettings } from '../orchestrator/idempotentChange';

const featureKey = (f: string): string => `enable${f[0].toUpperCase()}${f.slice(1)}`;

export const mcpInfoTool = defineTool({
  name: 'mcp_info',
  family: 'introspection',
  title: 'Server info',
  description:
    'What this Agent Ledger server is: version, transports, enabled tool families (features), timings, safety rules and limits.',
  input: z.strictObject({}),
  output: z.object({
    server: z.object({
      name: z.string(),
      version: z.string(),
      mcpVersion: z.string().describe('The newest MCP protocol revision served'),
      protocolVersions: z
        .array(z.string())
        .describe('Every revision served: 2026-07-28 (stateless, server/discover) and the 2025 initialize handshake'),
    }),
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
    families: z
      .record(
        z.string(),
        z.object({ enabled: z.boolean(), tools: z.number(), exposed: z.number(), description: z.string() }),
      )
      .describe(
        'Each tool family: switched on or not, how many tools it has, how many this server exposes (single features may expose some of an off family), and what it is for ("no tools yet" when it has none)',
      ),
    idempotency: z
      .object({ enabled: z.boolean(), windowMs: z.number() })
      .describe('Whether idempotency_key is remembered, and for how long'),
    timings: z.record(z.string(), z.number()),
    safety: z.record(z.string(), z.unknown()),
    limits: z.object({
      maxInputBytes: z.number(),
      maxMessageBytes: z.number(),
      maxJsonDepth: z.number(),
      defaultTimeoutMs: z.number(),
      maxEventHistory: z.number(),
      maxEventAgeMs: z
        .number()
        .describe(
          'Coordination events older than this are dropped (retention by age, besides maxEventHistory by count)',
        ),
      maxEventBytes: z
        .number()
        .describe('Characters of payload of the coordination events kept (retention by size, counted from the newest)'),
      ledger: ledgerLimitsOutput,
    }),
    workspace: z.string(),
    store: z.object({ path: z.string(), seq: z.number() }),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (_args, { services, enabledFamilies, enabledTools, families, features: on, http }) => {
    const enabled = enabledFamilies();
    const exposed = enabledTools();
    const features: Record<string, boolean> = { enableMcpIntrospection: true };
    const switchable = families().filter((f) => f.name !== 'introspection');
    for (const f of switchable) features[featureKey(f.name)] = enabled.has(f.name);
    // The finer switches (features.ts): what each one has on in this server, exactly.
    const featureSet = on ?? resolveFeatures(enabled);
    for (const f of featureList) features[f.toggle] = featureSet.has(f.name);
    const familyInfo = Object.fromEntries(
      switchable.map((f) => [
        f.name,
        {
          enabled: enabled.has(f.name),
          tools: f.tools.length,
          exposed: exposed.filter((t) => t.family === f.name).length,
          description: describeFamily(f),
        },
      ]),
    );
    return {
      server: {
        name: productName,
        version,
        mcpVersion: modernProtocolVersion,
        protocolVersions: [modernProtocolVersion, ...SUPPORTED_PROTOCOL_VERSIONS],
      },
      transports: {
        stdio: { enabled: http === undefined },
        http: http
          ? { enabled: true, ...http }
          : { enabled: false, host: null, port: null, path: null, enableJson: false, stateless: false },
      },
      features,
      families: familyInfo,
      idempotency: idempotencySettings(featureSet),
      timings: { storePollIntervalMs: serverLimits.storePollMs, lockTimeoutMs: serverLimits.lockTimeoutMs },
      safety: {
        pathsConfinedToWorkspace: true,
        pathConfinement:
          'real paths, symlinks included: a path (or a folder of .agent-ledger/ or .specs/) that resolves outside the workspace is refused on read and on write; worktrees go elsewhere only with --worktrees-dir',
        shellCommands: 'never: every launch command is built from quoted arguments',
        networkListeners: http
          ? `${http.host}:${http.port}${http.path} (Streamable HTTP${isLoopback(http.host) ? ', loopback only' : ''})`
          : 'none',
        // A pipeline checkpoint waits for a person unless the server was started with --allow-agent-checkpoints.
        humanCheckpointsEnforced: !services.pipelines.allowsAgentCheckpoints,
        agentCheckpointDecisions: services.pipelines.allowsAgentCheckpoints,
        // Child runtimes (the seed's ChildSafetyOptions): memory and CPU are not measured by the server.
        maxChildren: MAX_RUNNING_CHILDREN,
        memoryLimitMb: null,
        cpuPercent: null,
        childDefaults: { wallclockMs: DEFAULT_WALLCLOCK_MS, maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES },
      },
      limits: {
        maxInputBytes: serverLimits.maxInputBytes,
        maxMessageBytes: serverLimits.maxMessageBytes,
        maxJsonDepth: serverLimits.maxJsonDepth,
        defaultTimeoutMs: serverLimits.defaultTimeoutMs,
        maxEventHistory: services.eventBus.retention.maxEvents,
        maxEventAgeMs: services.eventBus.retention.maxAgeMs,
        maxEventBytes: services.eventBus.retention.maxBytes,
        ledger: services.limits,
      },
      workspace: services.paths.workspace,
      store: { path: services.paths.dbPath, seq: services.engine.seq },
    };
  },
});
