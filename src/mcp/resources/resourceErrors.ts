import { ProtocolErrorCode as ErrorCode } from '@modelcontextprotocol/server';
import type { LedgerErrorCode } from '../../core/errors';
import { toLedgerError } from '../toolResults';

/**
 * MCP's code for a resource that does not exist: -32602 with `data.uri` (the 2026-07-28 revision
 * says so, and the SDK maps the older -32002 to it on both revisions); `data.reason` says which case.
 */
export const RESOURCE_NOT_FOUND = ErrorCode.InvalidParams;

const notFoundCodes: ReadonlySet<LedgerErrorCode> = new Set(['NotFound', 'TaskNotFound', 'AgentNotFound', 'SessionNotFound']);

/**
 * A failed resources/read or resources/subscribe, with MCP's codes — -32602 for a resource not
 * found (`data.reason` UnknownResource or the not-found reason) and for a malformed URI, -32603
 * anything else — never our tools' numbers: those start at -32001, so our AgentNotFound (-32002)
 * would read as the older "resource not found" and NotFound (-32009) as nothing at all.
 */
export class ResourceError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: { uri: string; reason: string },
  ) {
    super(message);
    this.name = 'ResourceError';
  }
}

/** A URI no template or fixed resource of this server matches (`file:///etc/passwd`). */
export function unknownResource(uri: string, served: readonly string[]): ResourceError {
  return new ResourceError(RESOURCE_NOT_FOUND, `resource not found: ${uri} is not a resource of this server; it serves ${served.join(', ')} (never files)`, { uri, reason: 'UnknownResource' });
}

/** What reading a resource of a known template threw, as a resource error. */
export function toResourceError(err: unknown, uri: string): ResourceError {
  const error = toLedgerError(err);
  if (notFoundCodes.has(error.code)) return new ResourceError(RESOURCE_NOT_FOUND, `resource not found: ${uri}: ${error.message}`, { uri, reason: error.code });
  if (error.code === 'ValidationError') return new ResourceError(ErrorCode.InvalidParams, `invalid resource URI ${uri}: ${error.message}`, { uri, reason: error.code });
  // Unexpected failures were logged on stderr by toLedgerError; the client gets no stack.
  const message = error.code === 'InternalError' ? `internal error reading ${uri} (details in the server's log)` : `cannot read ${uri}: ${error.message}`;
  return new ResourceError(ErrorCode.InternalError, message, { uri, reason: error.code });
}
