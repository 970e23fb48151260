import { AsyncLocalStorage } from 'node:async_hooks';
import { thisMachine } from '../machine';

/**
 * Who the tool call running now writes as: `agent:<id>` once an agent is logged in on the
 * connection, else the connection itself (`connection:<machine>/<user>/<pid>`: one MCP server
 * process per client, one CLI command). The faces set it around each call; the write quota
 * (writeQuota.ts) charges it. Work the ledger does by itself (feeds, retention, the editor's
 * views), and what a call leaves running after it answered (a child runtime's exit, a timer),
 * is never charged: a write of the ledger's own is never refused for a caller's quota.
 */
interface Call {
  identity: string | null;
  /** False once the call has answered: work it left behind (a child's exit, a timer) is the ledger's. */
  open: boolean;
}

const calls = new AsyncLocalStorage<Call>();

/** Runs `fn` (and what it awaits) as `identity`, until it settles. */
export async function runAsCaller<T>(identity: string, fn: () => T | Promise<T>): Promise<T> {
  const call: Call = { identity, open: true };
  try {
    return await calls.run(call, fn);
  } finally {
    call.open = false;
  }
}

/** Runs `fn` as the ledger's own work: what it writes is not charged to the caller (derived data). */
export function runAsLedger<T>(fn: () => T): T {
  return calls.run({ identity: null, open: true }, fn);
}

/** The identity of the call running now, or undefined outside a call, after it answered, and in the ledger's own work. */
export function callerIdentity(): string | undefined {
  const call = calls.getStore();
  return call?.open && call.identity !== null ? call.identity : undefined;
}

/** This process as a connection: the identity of a call when no agent is logged in, and the source of a login. */
export function connectionIdentity(): string {
  const machine = thisMachine();
  return `connection:${machine.id}/${machine.user}/${process.pid}`;
}
