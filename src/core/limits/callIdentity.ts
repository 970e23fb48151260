import { AsyncLocalStorage } from 'node:async_hooks';
import { thisMachine } from '../machine';

/**
 * Who the tool call running now writes as: `agent:<id>` once an agent is logged in on the
 * connection, else the connection itself (`connection:<machine>/<user>/<pid>`: one MCP server
 * process per client, one CLI command). The faces set it around each call; the write quota
 * (writeQuota.ts) charges it. Work the ledger does by itself (feeds, retention, the editor's
 * views) runs outside any call and is never charged.
 */
const calls = new AsyncLocalStorage<string | null>();

/** Runs `fn` (and everything it awaits) as `identity`. */
export function runAsCaller<T>(identity: string, fn: () => T): T {
  return calls.run(identity, fn);
}

/** Runs `fn` as the ledger's own work: what it writes is not charged to the caller (derived data). */
export function runAsLedger<T>(fn: () => T): T {
  return calls.run(null, fn);
}

/** The identity of the call running now, or undefined outside a call (and in the ledger's own work). */
export function callerIdentity(): string | undefined {
  return calls.getStore() ?? undefined;
}

/** This process as a connection: the identity of a call when no agent is logged in, and the source of a login. */
export function connectionIdentity(): string {
  const machine = thisMachine();
  return `connection:${machine.id}/${machine.user}/${process.pid}`;
}
