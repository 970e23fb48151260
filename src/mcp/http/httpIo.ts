import type { IncomingMessage, ServerResponse } from 'node:http';

/** A request body read up to a bound: parsed JSON, or why not. */
export type Body =
  { kind: 'empty' } | { kind: 'json'; value: unknown } | { kind: 'invalid'; message: string } | { kind: 'tooLarge' };

/**
 * Reads a request body, never more than `max` bytes: a declared or streamed length past it stops
 * the read at once (the rest is never buffered).
 */
export function readBody(req: IncomingMessage, max: number): Promise<Body> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    req.resume();
    return Promise.resolve({ kind: 'tooLarge' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (body: Body): void => {
      if (done) return;
      done = true;
      resolve(body);
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > max) {
        req.pause();
        finish({ kind: 'tooLarge' });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
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
