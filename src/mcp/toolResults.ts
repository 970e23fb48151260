import type { CallToolResult } from '@modelcontextprotocol/server';
import { LedgerError, errorMessage } from '../core/errors';

/** A successful call: the result as structured content and the same JSON as text. */
export function okResult(value: unknown): CallToolResult {
  const structured =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { result: value };
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/**
 * An expected failure: `isError` with a JSON text `{ error: { code, reason, message, data } }`
 * (the task-management contract's codes). No structuredContent, since clients validate that against the
 * success output schema.
 */
export function errorResult(err: unknown): CallToolResult {
  const error = toLedgerError(err);
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: error.toJSON() }) }] };
}

export function toLedgerError(err: unknown): LedgerError {
  if (LedgerError.is(err)) return err;
  console.error('[agent-ledger] unexpected error in a tool call:', err);
  const message = errorMessage(err);
  return new LedgerError('InternalError', `internal error: ${message}`);
}
