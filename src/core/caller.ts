import { AsyncLocalStorage } from 'node:async_hooks';
import { thisMachine } from './machine';

/**
 * Who makes the request being served. A process run by the machine's user (the stdio server its
 * client started, the CLI, the editor) acts as `local`: the OS user, as before tokens existed. A
 * request over HTTP acts as the bearer token it carried: an agent (one agent, the projects it may
 * act in), a person (may decide: checkpoints, reviews, landing) or an admin (tokens, projects,
 * agents, the runner's tools).
 */
export type CallerRole = 'agent' | 'person' | 'admin' | 'local';

export interface Caller {
  role: CallerRole;
  /** The bearer token's id (shown as `token-<id>`); null for a local process. */
  tokenId: number | null;
  /** The person's name, the agent's id, the admin's label; the OS user for a local process. */
  name: string;
  /** Agent tokens: the agent they act as. */
  agent: string | null;
  /** Agent tokens: the project keys (`P-1`…) they may act in; null: unrestricted. */
  projects: readonly string[] | null;
}

/**
 * Who the tool call running now writes as: `agent:<id>` once an agent is logged in on the
 * connection, else the connection itself (`connection:<machine>/<user>/<pid>`: one MCP server
 * process per client, one CLI command). The write quota (limits/writeQuota.ts) charges it. Work the
 * ledger does by itself (feeds, retention, the editor's views), and what a call leaves running
 * after it answered (a child runtime's exit, a timer), is never charged: a write of the ledger's
 * own is never refused for a caller's quota.
 */
interface Call {
  identity: string | null;
  /** False once the call has answered: work it left behind (a child's exit, a timer) is the ledger's. */
  open: boolean;
}

/**
 * One scope for both facts, so a process pays for one async-context store on every promise
 * (Node 20 propagates each store through an async hook on each one).
 */
interface Scope {
  caller?: Caller;
  call?: Call;
}

const scope = new AsyncLocalStorage<Scope>();

/** The machine's user, acting locally. */
export function localCaller(): Caller {
  return { role: 'local', tokenId: null, name: thisMachine().user, agent: null, projects: null };
}

/**
 * Runs `fn` as `caller`: every await inside it sees the caller, so each write it makes records the
 * caller's token (core/events/eventLog.ts) without a parameter threaded through the services.
 */
export function runAsCaller<T>(caller: Caller, fn: () => T): T {
  return scope.run({ caller, call: scope.getStore()?.call }, fn);
}

/** The caller of the request being served; the local user outside any request. */
export function currentCaller(): Caller {
  return scope.getStore()?.caller ?? localCaller();
}

/** Whether the caller may make a person's decision (a checkpoint, a review, landing a task). */
export function mayDecide(caller: Caller): boolean {
  return caller.role === 'person' || caller.role === 'admin' || caller.role === 'local';
}

/** The token of the request being served, as each write records it (null: a local process). */
export function callerTokenId(): number | null {
  return currentCaller().tokenId;
}

/** Runs the tool call `fn` (and what it awaits) as writing as `identity`, until it settles. */
export async function runWritingAs<T>(identity: string, fn: () => T | Promise<T>): Promise<T> {
  const call: Call = { identity, open: true };
  try {
    return await scope.run({ caller: scope.getStore()?.caller, call }, fn);
  } finally {
    call.open = false;
  }
}

/** Runs `fn` as the ledger's own work: what it writes is not charged to the caller (derived data). */
export function runAsLedger<T>(fn: () => T): T {
  return scope.run({ caller: scope.getStore()?.caller, call: { identity: null, open: true } }, fn);
}

/** Who the call running now writes as, or undefined outside a call, after it answered, and in the ledger's own work. */
export function writerIdentity(): string | undefined {
  const call = scope.getStore()?.call;
  return call?.open && call.identity !== null ? call.identity : undefined;
}

/** This process as a connection: the identity of a call when no agent is logged in, and the source of a login. */
export function connectionIdentity(): string {
  const machine = thisMachine();
  return `connection:${machine.id}/${machine.user}/${process.pid}`;
}
