import { coordinationError } from '../coordinationErrors';

/**
 * Rules of the blackboard, as pure functions the store applies (self-codex
 * `src/coord/blackboard.ts`, `src/tools/coordTools.ts`): the entry shape, what a value may
 * be, when an entry is visible, how queries match, and which namespace a key is in.
 */
export interface BlackboardEntry {
  key: string;
  value: unknown;
  /** Trimmed, lower-cased, unique and sorted. */
  tags: string[];
  /** Store-wide sequence of the mutation that wrote this entry. */
  version: number;
  /** Epoch ms of the first write since the key was last absent. */
  created_at: number;
  updated_at: number;
  /** Epoch ms after which the entry is gone for every reader; null = never. */
  expires_at: number | null;
}

/** Largest stored value: 64 KiB of UTF-8 JSON, so one entry never dominates a page. */
export const BB_VALUE_MAX_BYTES = 65_536;
/** Deepest nesting of a stored value. */
export const BB_VALUE_MAX_DEPTH = 64;
/** Longest lifetime of an entry (one day). */
export const BB_TTL_MAX_MS = 86_400_000;
/** Most tags on one entry. */
export const BB_TAGS_MAX = 16;

/** The one visibility rule every reader uses: absent expiry, or expiry still ahead. */
export function isEntryVisible(entry: Pick<BlackboardEntry, 'expires_at'>, now: number): boolean {
  return entry.expires_at === null || entry.expires_at > now;
}

/** Expiry of an entry written at `now` with an optional lifetime. */
export function expiresAtFor(now: number, ttlMs: number | undefined): number | null {
  return ttlMs === undefined ? null : now + Math.min(Math.max(1, Math.floor(ttlMs)), BB_TTL_MAX_MS);
}

/** Tags as stored: trimmed, lower-cased, without duplicates or empties, sorted. */
export function normaliseTags(tags: readonly string[] | undefined): string[] {
  return [...new Set((tags ?? []).map((t) => t.trim().toLowerCase()).filter(Boolean))].sort();
}

export type ValueProblem =
  | 'undefined'
  | 'function'
  | 'symbol'
  | 'bigint'
  | 'non_finite_number'
  | 'cycle'
  | 'unsupported_type'
  | 'too_deep'
  | 'too_large';

export type ValueCheck =
  { ok: true; json: string; bytes: number } | { ok: false; problem: ValueProblem; path: string; message: string };

function describe(problem: ValueProblem, path: string): string {
  const where = path === '' ? 'the value' : `value${path}`;
  switch (problem) {
    case 'too_large':
      return `the value is larger than ${BB_VALUE_MAX_BYTES} bytes of JSON`;
    case 'too_deep':
      return `${where} is nested deeper than ${BB_VALUE_MAX_DEPTH} levels`;
    case 'cycle':
      return `${where} refers to itself`;
    case 'unsupported_type':
      return `${where} is not a plain object, array, string, number, boolean or null`;
    default:
      return `${where} is a ${problem.replace('_', '-')}, which JSON cannot hold`;
  }
}

/**
 * Whether `value` can be stored as is: plain JSON (null, booleans, finite numbers, strings,
 * arrays, plain objects), no cycle, at most {@link BB_VALUE_MAX_DEPTH} deep and
 * {@link BB_VALUE_MAX_BYTES} of JSON. `JSON.stringify` alone would silently drop a function
 * or turn NaN into null; this refuses them instead, naming the first bad path.
 */
export function checkStorableValue(value: unknown): ValueCheck {
  const onPath = new Set<object>();
  const walk = (v: unknown, path: string, depth: number): { problem: ValueProblem; path: string } | null => {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return null;
      case 'number':
        return Number.isFinite(v) ? null : { problem: 'non_finite_number', path };
      case 'undefined':
      case 'function':
      case 'symbol':
      case 'bigint':
        return { problem: typeof v as ValueProblem, path };
    }
    if (v === null) return null;
    const obj = v as object;
    if (depth >= BB_VALUE_MAX_DEPTH) return { problem: 'too_deep', path };
    if (onPath.has(obj)) return { problem: 'cycle', path };
    const proto = Object.getPrototypeOf(obj);
    const isArray = Array.isArray(obj);
    if (!isArray && proto !== Object.prototype && proto !== null) return { problem: 'unsupported_type', path };
    onPath.add(obj);
    try {
      if (isArray) {
        for (let i = 0; i < obj.length; i++) {
          const bad = walk(obj[i], `${path}[${i}]`, depth + 1);
          if (bad) return bad;
        }
      } else {
        for (const [k, child] of Object.entries(obj)) {
          const bad = walk(child, `${path}.${k}`, depth + 1);
          if (bad) return bad;
        }
      }
    } finally {
      onPath.delete(obj);
    }
    return null;
  };
  const bad = walk(value, '', 0);
  if (bad) return { ok: false, ...bad, message: describe(bad.problem, bad.path) };
  const json = JSON.stringify(value);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > BB_VALUE_MAX_BYTES)
    return { ok: false, problem: 'too_large', path: '', message: describe('too_large', '') };
  return { ok: true, json, bytes };
}

/** Throws `E-BB-VALUE-INVALID` unless `value` can be stored (`bb_set`). */
export function assertStorableValue(key: string, value: unknown): void {
  const check = checkStorableValue(value);
  if (!check.ok)
    throw coordinationError('E-BB-VALUE-INVALID', `'${key}': ${check.message}`, {
      key,
      problem: check.problem,
      path: check.path,
    });
}

/**
 * `bb_batch_set` is all or nothing: when any value cannot be stored, throws `E-BULK-PARTIAL`
 * with `index` (the first culprit) and `failures` (every culprit, as the public
 * implementation's `BulkFailureDetail`), and `rolled_back: true`.
 */
export function assertStorableBatch(
  entries: ReadonlyArray<{ key: string; value: unknown; tags?: readonly string[] }>,
): void {
  const failures = entries.flatMap((entry, index) => {
    const check = checkStorableValue(entry.value);
    if (check.ok) return [];
    return [
      {
        index,
        code: 'E-BB-VALUE-INVALID',
        message: check.message,
        stage: 'set',
        problem: check.problem,
        path: check.path,
        entry: { key: entry.key, tags: entry.tags?.length ? [...entry.tags] : null },
      },
    ];
  });
  if (failures.length === 0) return;
  throw coordinationError(
    'E-BULK-PARTIAL',
    `blackboard batch refused: entry ${failures[0].index} ('${failures[0].entry.key}'): ${failures[0].message}`,
    {
      index: failures[0].index,
      failures,
      rolled_back: true,
    },
  );
}

/** The entry a write produces, given the visible previous entry (if any) and the new version. */
export function nextEntry(
  previous: BlackboardEntry | null,
  write: { key: string; value: unknown; tags?: readonly string[]; ttl_ms?: number },
  at: { now: number; version: number },
): BlackboardEntry {
  const alive = previous !== null && isEntryVisible(previous, at.now);
  return {
    key: write.key,
    value: write.value,
    tags: normaliseTags(write.tags),
    version: at.version,
    created_at: alive ? previous.created_at : at.now,
    updated_at: at.now,
    expires_at: expiresAtFor(at.now, write.ttl_ms),
  };
}

/** `bb_query` filters: exact keys, a key prefix, and tags that must all be present. */
export interface BlackboardQuery {
  keys?: readonly string[];
  key_prefix?: string;
  /** Every listed tag must be on the entry (case-insensitive), as in the public implementation. */
  tags?: readonly string[];
}

/** True when a visible entry matches every given filter. */
export function matchesBlackboardQuery(entry: BlackboardEntry, query: BlackboardQuery, now: number): boolean {
  if (!isEntryVisible(entry, now)) return false;
  if (query.keys && query.keys.length > 0 && !query.keys.includes(entry.key)) return false;
  if (query.key_prefix !== undefined && !entry.key.startsWith(query.key_prefix)) return false;
  const required = normaliseTags(query.tags);
  return required.every((t) => entry.tags.includes(t));
}

/** `bb_query` order: most recently updated first, then by key. */
export function compareForQuery(a: BlackboardEntry, b: BlackboardEntry): number {
  return b.updated_at - a.updated_at || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/** Separators between a namespace and the rest of a key (`plan:step1`, `ci/build`, `a|b`). */
export const NAMESPACE_SEPARATORS = [':', '/', '|'] as const;

/**
 * Namespace of a key (the `sc://blackboard/<namespace>` it belongs to): the text before the
 * first separator that is not at position 0, or the whole key. The public code tries `:`
 * first, then `/`, then `|`, so `a/b:c` lands in `a/b`, which cannot be a URI segment; the
 * earliest separator wins here, so every namespace is one.
 */
export function namespaceOf(key: string): string {
  let cut = -1;
  for (let i = 1; i < key.length; i++) {
    if ((NAMESPACE_SEPARATORS as readonly string[]).includes(key[i])) {
      cut = i;
      break;
    }
  }
  return cut > 0 ? key.slice(0, cut) : key;
}

/** The public implementation's camelCase snapshot of an entry, used in `resources_read` payloads. */
export function toEntrySnapshot(entry: BlackboardEntry): {
  key: string;
  value: unknown;
  tags: string[];
  createdAt: number;
  updatedAt: number;
  expiresAt: number | null;
  version: number;
} {
  return {
    key: entry.key,
    value: entry.value,
    tags: [...entry.tags],
    createdAt: entry.created_at,
    updatedAt: entry.updated_at,
    expiresAt: entry.expires_at,
    version: entry.version,
  };
}
