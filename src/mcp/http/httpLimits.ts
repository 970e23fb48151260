import { serverLimits } from '../limits';

/** What one HTTP server accepts and keeps (mcp_info reports them; docs/http-server.md explains them). */
export const httpLimits = {
  /** Largest request body read; a longer one is answered 413 before it is parsed. */
  maxBodyBytes: serverLimits.maxMessageBytes,
  /** Requests one client (one token; without tokens, one address) may have in flight at once. */
  maxStreamsPerClient: 32,
  /** Open connections; past it the longest-idle connection is closed to admit the new one. */
  maxConnections: 512,
  /** A connection with no request in flight is closed after this long. */
  idleConnectionMs: 30_000,
  /** Time a client has to send a request's headers. */
  headersTimeoutMs: 10_000,
  /** Time a client has to send a whole request (headers and body). */
  requestTimeoutMs: 30_000,
  /** `--stateful` sessions of 2025-11-25 clients: closed after this long without a request. */
  sessionIdleMs: 30 * 60_000,
  /** `--stateful` sessions one client may hold. */
  maxSessionsPerClient: 16,
} as const;
