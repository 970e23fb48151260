import { LedgerError } from '../../errors';
import type { LedgerErrorCode } from '../../errors';

/**
 * Error names of the child-runtime tools, carried as `data.error` of a {@link LedgerError} (as
 * the other orchestrator tools do), so faces keep our numeric codes. Ours: the public
 * implementation throws plain errors here.
 */
const codes = {
  /** No child with that id in this workspace's ledger. */
  'E-CHILD-NOT-FOUND': 'NotFound',
  /** A child with that id exists (ids are never reused). */
  'E-CHILD-EXISTS': 'InvalidStatus',
  /** A limit refuses the call: too many children running, or the child's `messages` budget spent. */
  'E-CHILD-LIMIT': 'InvalidStatus',
  /** The child is not running (ended, or never started). */
  'E-CHILD-NOT-RUNNING': 'InvalidStatus',
  /** The child runs under another server process, which alone holds its input. */
  'E-CHILD-REMOTE': 'InvalidStatus',
  /** The program is not one this workspace allows (childPrograms.ts). */
  'E-CHILD-PROGRAM': 'ConfigError',
  /** A variable of `env` that may not be set for a child (childEnvironment.ts). */
  'E-CHILD-ENV': 'ValidationError',
} as const satisfies Record<string, LedgerErrorCode>;

export type ChildErrorName = keyof typeof codes;

export function childError(name: ChildErrorName, message: string, data: Record<string, unknown> = {}): LedgerError {
  return new LedgerError(codes[name], message, { error: name, ...data });
}
