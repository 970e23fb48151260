import { LedgerError } from './errors';

/**
 * Checks `core` makes itself, whoever calls it (MCP tools validate their schema first; the
 * CLI and the extension call core directly). Messages say what was wrong and what is accepted.
 */

export function requireText(field: string, value: unknown, max = 10_000): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new LedgerError('ValidationError', `${field} is required: a non-empty string`, { field });
  }
  if (value.length > max) throw new LedgerError('ValidationError', `${field} is too long (${value.length} characters; at most ${max})`, { field });
  return value.trim();
}

export function optionalText(field: string, value: unknown, max = 100_000): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new LedgerError('ValidationError', `${field} must be a string`, { field });
  if (value.length > max) throw new LedgerError('ValidationError', `${field} is too long (${value.length} characters; at most ${max})`, { field });
  return value;
}

export function requireOneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new LedgerError('ValidationError', `${field} must be one of ${allowed.map((a) => `"${a}"`).join(', ')} (got ${JSON.stringify(value)})`, {
    field,
    allowed: [...allowed],
  });
}

export function requireProgress(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) {
    throw new LedgerError('ValidationError', `progress must be a number from 0 to 100 (got ${JSON.stringify(value)})`, { field: 'progress' });
  }
  return value;
}
