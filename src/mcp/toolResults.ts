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
 * An expected failure: `isError` with two text items, (1) one line of prose that names the
 * reason and code (`TaskNotFound (-32001): task 99999 not found`) and (2) the same error as JSON
 * `{ error: { code, reason, message, data } }` (the task-management contract's codes) for
 * programs. The prose comes first because Gemini CLI copies a first text item that parses as JSON
 * into `structuredContent` and then checks it against the tool's success output schema, which
 * turned every refusal into "Structured content does not match the tool's output schema"
 * (docs/agent-clients.md). There is no structuredContent for the same reason: clients validate it
 * against the success schema.
 */
export function errorResult(err: unknown): CallToolResult {
  const error = toLedgerError(err);
  const json = error.toJSON();
  return {
    isError: true,
    content: [
      { type: 'text', text: `${json.reason} (${json.code}): ${json.message}` },
      { type: 'text', text: JSON.stringify({ error: json }) },
    ],
  };
}

export function toLedgerError(err: unknown): LedgerError {
  if (LedgerError.is(err)) return err;
  console.error('[agent-ledger] unexpected error in a tool call:', err);
  const message = errorMessage(err);
  return new LedgerError('InternalError', `internal error: ${message}`);
}
