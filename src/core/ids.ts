import { LedgerError } from './errors';
import type { LedgerErrorCode } from './errors';

/**
 * Every entity has one integer id. Faces show it in the shape of their contract: numbers in
 * the task-management contract (`5`), prefixed strings in the tracking contract (`task-5`, `wf-2`). One resolver per entity
 * accepts every shape: 5, "5", "#5", "task-5", "task_5", "task:5", "task://5".
 */
export type EntityKind = 'task' | 'workflow' | 'session';

const prefixes: Record<EntityKind, { key: string; accepted: string[]; notFound: LedgerErrorCode }> = {
  task: { key: 'task-', accepted: ['task', 't'], notFound: 'TaskNotFound' },
  workflow: { key: 'wf-', accepted: ['wf', 'workflow'], notFound: 'NotFound' },
  session: { key: 'session-', accepted: ['session', 's'], notFound: 'SessionNotFound' },
};

export function taskKey(id: number): string {
  return `task-${id}`;
}

export function workflowKey(id: number): string {
  return `wf-${id}`;
}

/** Parses any accepted shape of an id, or throws a ValidationError saying which shapes work. */
export function parseId(kind: EntityKind, ref: unknown): number {
  const { key, accepted } = prefixes[kind];
  if (typeof ref === 'number' && Number.isSafeInteger(ref) && ref > 0) return ref;
  if (typeof ref === 'string') {
    const text = ref.trim();
    const m = /^(?:([a-z]+)(?::\/\/|[-_:#]?))?#?(\d+)$/i.exec(text);
    if (m && (!m[1] || accepted.includes(m[1].toLowerCase()))) {
      const n = Number(m[2]);
      if (Number.isSafeInteger(n) && n > 0) return n;
    }
  }
  throw new LedgerError(
    'ValidationError',
    `${JSON.stringify(ref)} is not a ${kind} id: use the id a tool returned, like "${key}12" or 12`,
    {
      [`${kind}Id`]: ref as never,
    },
  );
}

/** The not-found error of an entity, in the task-management contract's codes. */
export function notFound(kind: EntityKind, ref: unknown): LedgerError {
  const { key, notFound: code } = prefixes[kind];
  const id = typeof ref === 'number' ? `${key}${ref}` : String(ref);
  const hint =
    kind === 'task'
      ? 'list tasks with task_list or `agent-ledger task list`'
      : kind === 'workflow'
        ? 'list workflows with `agent-ledger workflow list`'
        : 'list sessions with session_list';
  return new LedgerError(code, `${kind[0].toUpperCase()}${kind.slice(1)} ${id} not found (${hint})`, {
    [`${kind}Id`]: ref as never,
  });
}

/**
 * Ids of the agent-PM tools travel as strings, as the contract's do (`prj_frontend`, `exec_abc123`):
 * `prj-3`, `exec-7`, `handoff-2`, `task-5`. Each resolver also takes the bare number, `"#3"` and
 * the `_` / `:` spellings, like the task resolver (core/ids.ts). Agents are named by their
 * definition's name, which is their id.
 */
export type PmEntity = 'project' | 'execution' | 'handoff';

const shapes: Record<PmEntity, { key: string; accepted: string[] }> = {
  project: { key: 'prj-', accepted: ['prj', 'project', 'p'] },
  execution: { key: 'exec-', accepted: ['exec', 'execution'] },
  handoff: { key: 'handoff-', accepted: ['handoff', 'h'] },
};

export const projectKey = (id: number): string => `prj-${id}`;
export const executionKey = (id: number): string => `exec-${id}`;
export const handoffKey = (id: number): string => `handoff-${id}`;

/** The integer id inside any accepted shape, or undefined when `ref` is not one. */
export function pmIdOf(kind: PmEntity, ref: unknown): number | undefined {
  if (typeof ref === 'number') return Number.isSafeInteger(ref) && ref > 0 ? ref : undefined;
  if (typeof ref !== 'string') return undefined;
  const m = /^(?:([a-z]+)(?::\/\/|[-_:#]?))?#?(\d+)$/i.exec(ref.trim());
  if (!m || (m[1] && !shapes[kind].accepted.includes(m[1].toLowerCase()))) return undefined;
  const n = Number(m[2]);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The integer id, or a ValidationError naming the shapes that work. */
export function parsePmId(kind: PmEntity, ref: unknown, field: string): number {
  const id = pmIdOf(kind, ref);
  if (id !== undefined) return id;
  throw new LedgerError(
    'ValidationError',
    `${JSON.stringify(ref)} is not a ${kind} id: use the id a tool returned, like "${shapes[kind].key}3"`,
    { [field]: ref as never },
  );
}

export function pmNotFound(kind: PmEntity, ref: unknown, field: string, hint: string): LedgerError {
  return new LedgerError('NotFound', `${kind[0].toUpperCase()}${kind.slice(1)} ${String(ref)} not found (${hint})`, {
    [field]: ref as never,
  });
}
