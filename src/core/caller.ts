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

const scope = new AsyncLocalStorage<Caller>();

/** The machine's user, acting locally. */
export function localCaller(): Caller {
  return { role: 'local', tokenId: null, name: thisMachine().user, agent: null, projects: null };
}

/**
 * Runs `fn` as `caller`: every await inside it sees the caller, so each write it makes records the
 * caller's token (core/events/eventLog.ts) without a parameter threaded through the services.
 */
export function runAsCaller<T>(caller: Caller, fn: () => T): T {
  return scope.run(caller, fn);
}

/** The caller of the request being served; the local user outside any request. */
export function currentCaller(): Caller {
  return scope.getStore() ?? localCaller();
}

/** Whether the caller may make a person's decision (a checkpoint, a review, landing a task). */
export function mayDecide(caller: Caller): boolean {
  return caller.role === 'person' || caller.role === 'admin' || caller.role === 'local';
}

/** The token of the request being served, as each write records it (null: a local process). */
export function callerTokenId(): number | null {
  return currentCaller().tokenId;
}
