import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';

/** A request body read up to a bound: parsed JSON, or why not. */
export type Body =
  { kind: 'empty' } | { kind: 'json'; value: unknown } | { kind: 'invalid'; message: string } | { kind: 'tooLarge' };

/**
 * Reads a request body, never buffering more than `max` bytes: past it (declared or streamed) the
 * body is refused at once, and the rest is read and dropped so the client can read the refusal
 * (closing on a client still sending makes it see a broken pipe instead) — up to `drainMax` bytes,
 * after which the connection is closed.
 */
export function readBody(req: IncomingMessage, max: number, drainMax = 16 * max): Promise<Body> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (body: Body): void => {
      if (done) return;
      done = true;
      resolve(body);
    };
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) finish({ kind: 'tooLarge' });
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > drainMax) return req.destroy();
      if (size > max) return finish({ kind: 'tooLarge' });
      if (!done) chunks.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return finish({ kind: 'empty' });
      try {
        finish({ kind: 'json', value: JSON.parse(text) });
      } catch (err) {
        finish({ kind: 'invalid', message: (err as Error).message });
      }
    });
    req.on('error', () => finish({ kind: 'invalid', message: 'the request body could not be read' }));
    req.on('aborted', () => finish({ kind: 'invalid', message: 'the client went away' }));
  });
}

/** A JSON-RPC error answer at the HTTP level (no request id is known there). */
export function jsonRpcErrorResponse(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id: unknown = null,
): Response {
  return Response.json({ jsonrpc: '2.0', id, error: { code, message } }, { status, headers });
}

/** Writes a whole (small) web Response to a Node response. */
export async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  if (res.destroyed) return;
  res.writeHead(response.status, headers);
  res.end(body);
}

/** A web handler (the SDK's `fetch` face) with the request's pass-through options. */
export type WebHandler = (
  request: Request,
  options: { authInfo?: AuthInfo; parsedBody?: unknown },
) => Promise<Response>;

/**
 * The web `Request` of a Node request whose body was read already (readBody): without a body, as
 * the SDK takes the parsed body from the handler's options and never reads the stream; its signal
 * aborts when the client goes (the SDK cancels the call).
 */
function webRequestOf(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    signal,
  });
}

/**
 * Serves one Node request, its body already read, with a web handler. A JSON answer is written in
 * one piece with its length (one write, no chunked framing: on a loaded machine each extra write
 * wakes the client once more), an event stream chunk by chunk, waiting for the socket to drain.
 */
export async function serveWeb(
  req: IncomingMessage,
  res: ServerResponse,
  handler: WebHandler,
  options: { authInfo?: AuthInfo; parsedBody?: unknown },
): Promise<void> {
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  const response = await handler(webRequestOf(req, abort.signal), options);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  if (response.body === null || !headers['content-type']?.startsWith('text/event-stream')) {
    const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
    if (res.destroyed) return;
    if (body) headers['content-length'] = String(body.length);
    res.writeHead(response.status, headers);
    res.end(body);
    return;
  }
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const reader = response.body.getReader();
  const closed = new Promise<void>((resolve) =>
    abort.signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), closed.then(() => undefined)]);
      if (!next || next.done) break;
      if (!res.write(next.value))
        await Promise.race([new Promise<void>((resolve) => res.once('drain', () => resolve())), closed]);
    }
  } catch {
    // The stream failed: end the answer; the client reads a truncated stream and retries.
  } finally {
    if (abort.signal.aborted) await reader.cancel().catch(() => undefined);
    res.end();
  }
}
