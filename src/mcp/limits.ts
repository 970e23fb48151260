/** Limits the server applies and reports through mcp_info. */
export const serverLimits = {
  /** Largest tools/call arguments accepted, serialized. */
  maxInputBytes: 1024 * 1024,
  /** Largest JSON-RPC frame (one line on stdin) read; a longer one is refused, never buffered. */
  maxMessageBytes: 4 * 1024 * 1024,
  /** Deepest nesting of arrays and objects in a message. */
  maxJsonDepth: 64,
  defaultTimeoutMs: 30_000,
  storePollMs: 250,
  lockTimeoutMs: 15_000,
} as const;
