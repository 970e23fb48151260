import { LedgerError } from '../errors';
import type { LedgerErrorCode } from '../errors';

/**
 * Error names of the orchestrator tools. Most come from the public implementation's error
 * catalogue (self-codex `src/types.ts` ERROR_CATALOG, `src/graph/locks.ts`,
 * `src/tools/coordTools.ts`); `E-GRAPH-MUTATION-LOCKED` is the name the seed document gives
 * (the public code later renamed it `E-LOCK-HELD`). The ones marked "Ours" are ours.
 * They travel as `data.error` of a {@link LedgerError}, which keeps our numeric mapping.
 */
export const coordinationErrorNames = {
  /** Another holder's lock protects the graph a mutation targets. */
  mutationLocked: 'E-GRAPH-MUTATION-LOCKED',
  /** `graph_lock` by a holder while another holder's lock is active. */
  lockHeld: 'E-LOCK-HELD',
  /** `graph_unlock` of a lock id that does not exist (or was already released). */
  lockNotFound: 'E-LOCK-NOT-FOUND',
  /** `expected_version` / `base_version` is not the committed version, or a transaction's changes do not commute with the graph's since it began. */
  versionConflict: 'E-TX-CONFLICT',
  /** A transaction id that is not open (committed, rolled back, or expired long ago). */
  transactionNotFound: 'E-TX-NOT-FOUND',
  /** A transaction left unused longer than its lifetime. */
  transactionExpired: 'E-TX-EXPIRED',
  /** A JSON patch that cannot be applied (bad path, failed `test`, unsupported shape). */
  patchInvalid: 'E-PATCH-INVALID',
  /** Umbrella name when a graph breaks several invariants of different kinds. */
  invariantViolation: 'E-PATCH-INVARIANT-VIOLATION',
  /** A directed cycle in a graph whose invariants require a DAG. */
  patchCycle: 'E-PATCH-CYCLE',
  /** Structural breakage: duplicate node id, duplicate edge, dangling edge, self-loop. */
  graphInvalid: 'E-GRAPH-INVALID-INPUT',
  /** A `sc://` URI that does not follow the grammar. */
  resourceInvalid: 'E-RES-INVALID',
  /** A well-formed `sc://` URI naming nothing. */
  resourceNotFound: 'E-RES-NOT-FOUND',
  /** A URI whose kind has no event stream (graphs, snapshots). */
  watchUnsupported: 'E-RES-WATCH-UNSUPPORTED',
  /** `bb_get` of a key that is absent or expired. */
  blackboardNotFound: 'E-BB-NOTFOUND',
  /** A batch refused whole because some entries failed; `data.failures` lists them. */
  bulkPartial: 'E-BULK-PARTIAL',
  /** Ours: a blackboard value that cannot be stored (not plain JSON, or too large). */
  blackboardValueInvalid: 'E-BB-VALUE-INVALID',
  /** Ours: an idempotency key reused with different arguments. */
  idempotencyConflict: 'E-IDEMPOTENCY-CONFLICT',
  /** Ours: the first call with this idempotency key is still running (it starts a process); retry later. */
  idempotencyPending: 'E-IDEMPOTENCY-PENDING',
  /** Ours: an event cursor older than the retained history. */
  cursorExpired: 'E-EVT-CURSOR-EXPIRED',
  /** Ours: `graph_lock` by a holder while another owner's transaction on the graph is open. */
  transactionOpen: 'E-TX-OPEN',
} as const;

export type CoordinationErrorName = (typeof coordinationErrorNames)[keyof typeof coordinationErrorNames];

const ledgerCodes: Record<CoordinationErrorName, LedgerErrorCode> = {
  'E-GRAPH-MUTATION-LOCKED': 'InvalidStatus',
  'E-LOCK-HELD': 'InvalidStatus',
  'E-LOCK-NOT-FOUND': 'NotFound',
  'E-TX-CONFLICT': 'InvalidStatus',
  'E-TX-NOT-FOUND': 'NotFound',
  'E-TX-EXPIRED': 'InvalidStatus',
  'E-PATCH-INVALID': 'ValidationError',
  'E-PATCH-INVARIANT-VIOLATION': 'ValidationError',
  'E-PATCH-CYCLE': 'ValidationError',
  'E-GRAPH-INVALID-INPUT': 'ValidationError',
  'E-RES-INVALID': 'ValidationError',
  'E-RES-NOT-FOUND': 'NotFound',
  'E-RES-WATCH-UNSUPPORTED': 'ValidationError',
  'E-BB-NOTFOUND': 'NotFound',
  'E-BULK-PARTIAL': 'ValidationError',
  'E-BB-VALUE-INVALID': 'ValidationError',
  'E-IDEMPOTENCY-CONFLICT': 'ValidationError',
  'E-IDEMPOTENCY-PENDING': 'InvalidStatus',
  'E-EVT-CURSOR-EXPIRED': 'InvalidStatus',
  'E-TX-OPEN': 'InvalidStatus',
};

/**
 * A {@link LedgerError} carrying an orchestrator error name in `data.error`, so faces keep
 * our numeric codes while the tool result says e.g. `E-GRAPH-MUTATION-LOCKED`.
 */
export function coordinationError(
  name: CoordinationErrorName,
  message: string,
  data: Record<string, unknown> = {},
): LedgerError {
  return new LedgerError(ledgerCodes[name], message, { error: name, ...data });
}

/** The orchestrator error name of `ex`, when it is one of ours. */
export function coordinationErrorName(ex: unknown): CoordinationErrorName | undefined {
  if (!LedgerError.is(ex)) return undefined;
  const name = ex.data?.error;
  return typeof name === 'string' && name in ledgerCodes ? (name as CoordinationErrorName) : undefined;
}

/** True when `ex` is a coordination error, of the given name when one is passed. */
export function isCoordinationError(ex: unknown, name?: CoordinationErrorName): ex is LedgerError {
  const actual = coordinationErrorName(ex);
  return actual !== undefined && (name === undefined || actual === name);
}
