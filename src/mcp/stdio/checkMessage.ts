import { ClientRequestSchema, ErrorCode, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { scanJson } from './jsonScan';
import type { Frame } from './lineFramer';

export interface FrameLimits {
  /** Largest frame (one line) accepted, in bytes. */
  maxMessageBytes: number;
  /** Deepest nesting of arrays and objects accepted. */
  maxJsonDepth: number;
}

/**
 * Why a frame was not handed to the server: the JSON-RPC error to answer with (`reply`, with
 * the request's id when it could be read) or, for a broken notification, only a log line.
 */
export interface Refusal {
  code: number;
  message: string;
  id?: RequestId;
  /** False for notifications: JSON-RPC never answers them. */
  reply: boolean;
}

export type Checked = { message: JSONRPCMessage } | { refusal: Refusal };

/** The request schema of each method the SDK's Server knows, to refuse bad params with -32602. */
const requestSchemas = new Map(
  ClientRequestSchema.options.map((schema) => [schema.shape.method.value as string, schema]),
);

/**
 * Checks one frame before the SDK sees it, refusing with the code JSON-RPC names: -32700 for
 * text that is not JSON, -32600 for a frame too large or not a request/notification/response,
 * -32602 for params that are not an object, nest too deep or do not fit the method.
 */
export function checkFrame(frame: Frame, limits: FrameLimits): Checked {
  if (frame.kind === 'oversized') {
    const { id } = scanJson(frame.prefix, limits.maxJsonDepth);
    return refuse(
      ErrorCode.InvalidRequest,
      `message too large: ${frame.bytes} bytes, at most ${limits.maxMessageBytes} per line`,
      id,
    );
  }
  const scan = scanJson(frame.text, limits.maxJsonDepth);
  if (scan.tooDeep)
    return refuse(ErrorCode.InvalidParams, `params nest deeper than ${limits.maxJsonDepth} levels`, scan.id);
  let value: unknown;
  try {
    value = JSON.parse(frame.text);
  } catch (err) {
    return refuse(ErrorCode.ParseError, `parse error: ${(err as Error).message}`, scan.id);
  }
  return checkEnvelope(value, scan.id);
}

function checkEnvelope(value: unknown, scannedId: RequestId | undefined): Checked {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return refuse(
      ErrorCode.InvalidRequest,
      `invalid request: expected a JSON-RPC object, got ${Array.isArray(value) ? 'an array (batches are not part of MCP)' : describe(value)}`,
    );
  }
  const m = value as Record<string, unknown>;
  const hasId = 'id' in m;
  const idOk = typeof m.id === 'string' || Number.isSafeInteger(m.id);
  const id = idOk ? (m.id as RequestId) : undefined;
  if (hasId && !idOk)
    return refuse(
      ErrorCode.InvalidRequest,
      `invalid request: "id" must be a string or an integer, got ${describe(m.id)}`,
    );
  if (m.jsonrpc !== '2.0')
    return refuse(ErrorCode.InvalidRequest, 'invalid request: "jsonrpc" must be "2.0"', id ?? scannedId, hasId);
  if ('method' in m) {
    if (typeof m.method !== 'string')
      return refuse(
        ErrorCode.InvalidRequest,
        `invalid request: "method" must be a string, got ${describe(m.method)}`,
        id,
        hasId,
      );
    if ('params' in m && (m.params === null || typeof m.params !== 'object' || Array.isArray(m.params))) {
      return refuse(
        ErrorCode.InvalidParams,
        `invalid params of ${m.method}: "params" must be an object, got ${describe(m.params)}`,
        id,
        hasId,
      );
    }
    const schema = hasId ? requestSchemas.get(m.method) : undefined;
    if (schema) {
      const parsed = schema.safeParse({ method: m.method, params: m.params });
      if (!parsed.success)
        return refuse(ErrorCode.InvalidParams, `invalid params of ${m.method}: ${issuesText(parsed.error.issues)}`, id);
    }
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (!parsed.success)
    return refuse(
      ErrorCode.InvalidRequest,
      `invalid request: ${issuesText(parsed.error.issues)}`,
      id,
      hasId || !('method' in m),
    );
  return { message: parsed.data };
}

function refuse(code: number, message: string, id?: RequestId, reply = true): Checked {
  return { refusal: { code, message, ...(id !== undefined ? { id } : {}), reply } };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

function issuesText(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.map(String).join('.') || '(message)'}: ${i.message}`)
    .join('; ');
}
