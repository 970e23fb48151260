import { ProtocolErrorCode as ErrorCode, specTypeSchemas } from '@modelcontextprotocol/server';
import type { JSONRPCMessage, RequestId, SpecTypeName } from '@modelcontextprotocol/server';
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

/** The request schema of each method a client sends (both protocol revisions), to refuse bad params with -32602. */
const requestSchemas = new Map<string, SpecTypeName>([
  ['initialize', 'InitializeRequest'],
  ['ping', 'PingRequest'],
  ['server/discover', 'DiscoverRequest'],
  ['subscriptions/listen', 'SubscriptionsListenRequest'],
  ['tools/list', 'ListToolsRequest'],
  ['tools/call', 'CallToolRequest'],
  ['resources/list', 'ListResourcesRequest'],
  ['resources/templates/list', 'ListResourceTemplatesRequest'],
  ['resources/read', 'ReadResourceRequest'],
  ['resources/subscribe', 'SubscribeRequest'],
  ['resources/unsubscribe', 'UnsubscribeRequest'],
  ['prompts/list', 'ListPromptsRequest'],
  ['prompts/get', 'GetPromptRequest'],
  ['completion/complete', 'CompleteRequest'],
  ['logging/setLevel', 'SetLevelRequest'],
]);

/** The problems `value` has against a spec type's schema (none: undefined). */
function issuesOf(type: SpecTypeName, value: unknown): readonly Issue[] | undefined {
  const result = specTypeSchemas[type]['~standard'].validate(value) as { issues?: readonly Issue[] };
  return result.issues?.length ? result.issues : undefined;
}

interface Issue {
  path?: readonly (PropertyKey | { key: PropertyKey })[];
  message: string;
}

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
    const issues = schema && issuesOf(schema, { method: m.method, params: m.params });
    if (issues) return refuse(ErrorCode.InvalidParams, `invalid params of ${m.method}: ${issuesText(issues)}`, id);
  }
  const issues = issuesOf('JSONRPCMessage', value);
  if (issues)
    return refuse(ErrorCode.InvalidRequest, `invalid request: ${issuesText(issues)}`, id, hasId || !('method' in m));
  // The message as it came: the schemas leave out what they do not name (a 2026 request's inputResponses).
  return { message: value as JSONRPCMessage };
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

function issuesText(issues: readonly Issue[]): string {
  const key = (k: PropertyKey | { key: PropertyKey }): string => String(typeof k === 'object' ? k.key : k);
  return issues
    .slice(0, 5)
    .map((i) => `${(i.path ?? []).map(key).join('.') || '(message)'}: ${i.message}`)
    .join('; ');
}
