import { LedgerError } from '../errors';

/**
 * The bounds of one ledger: how much one blackboard namespace, the knowledge graph and one plan
 * graph may hold, how much of the events log and of a graph's history is kept, how much one agent
 * (or one connection) may write in a window, and how fast wrong passkeys are answered. Chosen so
 * that a team never meets them in normal use, while a runaway client is stopped in seconds
 * (docs/limits.md has the figures). Each can be changed with `AGENT_LEDGER_LIMITS`.
 */
export interface LedgerLimits {
  /** Entries of one blackboard namespace (the text before the first ":", "/" or "|" of a key). */
  bbNamespaceEntries: number;
  /** Characters of JSON values of one blackboard namespace. */
  bbNamespaceBytes: number;
  /** Characters of JSON values of the whole blackboard. */
  bbTotalBytes: number;
  /** Characters of one knowledge-graph triple: subject, predicate, object, source and provenance. */
  kgTripleBytes: number;
  /** Triples of the knowledge graph (kg_insert refuses beyond; what the ledger feeds by itself is not refused). */
  kgTriples: number;
  /** Characters of every triple of the knowledge graph. */
  kgTotalBytes: number;
  /** Characters of one version of a plan graph (its whole JSON). */
  graphVersionBytes: number;
  /** Newest versions of a plan graph kept (older ones go, unless a kept one is replayed from them). */
  graphVersionsKept: number;
  /** Newest coordination events kept (mcp_info.limits.maxEventHistory). */
  eventHistory: number;
  /** Coordination events older than this are dropped (mcp_info.limits.maxEventAgeMs). */
  eventAgeMs: number;
  /** Characters of payload of the coordination events kept (mcp_info.limits.maxEventBytes). */
  eventBytes: number;
  /** Characters one agent (or one connection, when no agent is logged in) may write per window. */
  quotaBytes: number;
  /** The window of `quotaBytes`. */
  quotaWindowMs: number;
  /** Wrong passkeys one connection may send before it must wait (1 s, doubling). */
  loginSourceFreeFailures: number;
  /** Longest wait a connection is given after wrong passkeys. */
  loginSourceMaxWaitMs: number;
  /** Wrong passkeys (from anywhere) an agent takes before each login of it is answered more slowly. */
  loginAgentFreeFailures: number;
  /** How much slower per wrong passkey beyond those. */
  loginAgentDelayStepMs: number;
  /** Longest delay of an agent's login: a delay, never a refusal, so a stranger cannot lock the agent out. */
  loginAgentMaxDelayMs: number;
  /** Wrong passkeys older than this are forgotten. */
  loginWindowMs: number;
}

type Unit = 'bytes' | 'count' | 'ms';

const KiB = 1024;
const MiB = 1024 * KiB;
const minute = 60_000;

/** Each limit: its unit, default and what it bounds, in the order docs/limits.md lists them. */
export const limitDefinitions: Record<keyof LedgerLimits, { unit: Unit; value: number; bounds: string }> = {
  bbNamespaceEntries: { unit: 'count', value: 10_000, bounds: 'entries of one blackboard namespace' },
  bbNamespaceBytes: { unit: 'bytes', value: 16 * MiB, bounds: 'characters of values of one blackboard namespace' },
  bbTotalBytes: { unit: 'bytes', value: 64 * MiB, bounds: 'characters of values of the whole blackboard' },
  kgTripleBytes: {
    unit: 'bytes',
    value: 16 * KiB,
    bounds: 'characters of one knowledge-graph triple with its provenance',
  },
  kgTriples: { unit: 'count', value: 200_000, bounds: 'triples of the knowledge graph (kg_insert)' },
  kgTotalBytes: {
    unit: 'bytes',
    value: 64 * MiB,
    bounds: 'characters of every triple of the knowledge graph (kg_insert)',
  },
  graphVersionBytes: { unit: 'bytes', value: 8 * MiB, bounds: 'characters of one stored plan-graph version' },
  graphVersionsKept: { unit: 'count', value: 1_000, bounds: 'newest versions of a plan graph kept' },
  eventHistory: { unit: 'count', value: 100_000, bounds: 'newest coordination events kept' },
  eventAgeMs: { unit: 'ms', value: 7 * 24 * 60 * minute, bounds: 'age past which coordination events are dropped' },
  eventBytes: { unit: 'bytes', value: 64 * MiB, bounds: 'characters of payload of the coordination events kept' },
  quotaBytes: { unit: 'bytes', value: 32 * MiB, bounds: 'characters one agent (or connection) may write per window' },
  quotaWindowMs: { unit: 'ms', value: 10 * minute, bounds: 'the window of quotaBytes' },
  loginSourceFreeFailures: {
    unit: 'count',
    value: 5,
    bounds: 'wrong passkeys one connection sends before it must wait',
  },
  loginSourceMaxWaitMs: { unit: 'ms', value: 15 * minute, bounds: 'longest wait of a connection after wrong passkeys' },
  loginAgentFreeFailures: {
    unit: 'count',
    value: 10,
    bounds: 'wrong passkeys for one agent before its logins are answered later',
  },
  loginAgentDelayStepMs: { unit: 'ms', value: 250, bounds: 'how much later per wrong passkey beyond those' },
  loginAgentMaxDelayMs: { unit: 'ms', value: 5_000, bounds: "longest delay of an agent's login (never a refusal)" },
  loginWindowMs: { unit: 'ms', value: 60 * minute, bounds: 'wrong passkeys older than this are forgotten' },
};

export const defaultLimits: LedgerLimits = Object.fromEntries(
  Object.entries(limitDefinitions).map(([name, d]) => [name, d.value]),
) as unknown as LedgerLimits;

const units: Record<Unit, Record<string, number>> = {
  bytes: {
    '': 1,
    b: 1,
    k: KiB,
    kb: KiB,
    kib: KiB,
    m: MiB,
    mb: MiB,
    mib: MiB,
    g: 1024 * MiB,
    gb: 1024 * MiB,
    gib: 1024 * MiB,
  },
  count: { '': 1, k: 1000 },
  ms: { '': 1, ms: 1, s: 1000, m: minute, min: minute, h: 60 * minute, d: 24 * 60 * minute },
};

/**
 * The limits `AGENT_LEDGER_LIMITS` sets over the defaults: `name=value` pairs separated by commas
 * or spaces, a value with an optional unit (`bbNamespaceBytes=32MiB, quotaWindowMs=5m`: KiB, MiB,
 * GiB for sizes, ms, s, m, h, d for times, k for counts). A wrong name or value is a ConfigError
 * that lists what is accepted.
 */
export function parseLimits(text: string | undefined, variable = 'AGENT_LEDGER_LIMITS'): LedgerLimits {
  const limits = { ...defaultLimits };
  for (const pair of (text ?? '').split(/[\s,;]+/).filter(Boolean)) {
    const [name, raw, extra] = pair.split('=');
    const definition = (limitDefinitions as Record<string, { unit: Unit } | undefined>)[name];
    if (!definition || raw === undefined || extra !== undefined)
      throw new LedgerError(
        'ConfigError',
        `${variable}: "${pair}" is not name=value with a known name (${Object.keys(limitDefinitions).join(', ')})`,
      );
    const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(raw.trim());
    const factor = match ? units[definition.unit][match[2].toLowerCase()] : undefined;
    const value = match && factor !== undefined ? Math.round(Number(match[1]) * factor) : NaN;
    if (!Number.isSafeInteger(value) || value < 1)
      throw new LedgerError(
        'ConfigError',
        `${variable}: ${name}=${raw} is not a positive ${definition.unit === 'count' ? 'number' : definition.unit === 'ms' ? 'duration (e.g. 500ms, 30s, 10m, 2h, 7d)' : 'size (e.g. 512KiB, 16MiB)'}`,
      );
    (limits as Record<string, number>)[name] = value;
  }
  return limits;
}

/**
 * The refusal of a write that would pass one of the bounds: QuotaExceeded with `data.error`
 * E-QUOTA and `data.limit` naming the bound (what `AGENT_LEDGER_LIMITS` changes). Nothing of the
 * call is written.
 */
export function limitReached(
  limit: keyof LedgerLimits,
  message: string,
  data: Record<string, unknown> = {},
): LedgerError {
  return new LedgerError('QuotaExceeded', `${message} (limit ${limit}: docs/limits.md)`, {
    error: 'E-QUOTA',
    limit,
    ...data,
  });
}
