import { LedgerError } from '../errors';

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
  throw new LedgerError('ValidationError', `${JSON.stringify(ref)} is not a ${kind} id: use the id a tool returned, like "${shapes[kind].key}3"`, { [field]: ref as never });
}

export function pmNotFound(kind: PmEntity, ref: unknown, field: string, hint: string): LedgerError {
  return new LedgerError('NotFound', `${kind[0].toUpperCase()}${kind.slice(1)} ${String(ref)} not found (${hint})`, { [field]: ref as never });
}
