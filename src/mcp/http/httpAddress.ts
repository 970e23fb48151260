import { isIP } from 'node:net';
import { validationError } from '../../core/errors';

/** Where `mcp serve --http` listens: `8080`, `127.0.0.1:8080`, `[::1]:8080`, `0.0.0.0:8080`. */
export interface HttpAddress {
  host: string;
  port: number;
}

/** The loopback names and addresses: the only ones a server listens on unless told otherwise. */
const loopbackNames = new Set(['localhost', '127.0.0.1', '::1']);

export function isLoopback(host: string): boolean {
  return loopbackNames.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Parses `[HOST:]PORT`; HOST defaults to 127.0.0.1 (loopback). Port 0 picks a free one. */
export function parseHttpAddress(text: string): HttpAddress {
  const value = text.trim();
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d+)$/.exec(value) ?? /^()()(\d+)$/.exec(value);
  const port = m ? Number(m[3]) : NaN;
  if (!m || !Number.isInteger(port) || port < 0 || port > 65535)
    throw validationError(
      `--http takes [HOST:]PORT (e.g. 8080, 127.0.0.1:8080, [::1]:8080, 0.0.0.0:8080), got ${JSON.stringify(text)}`,
      { http: text },
    );
  const host = m[1] || m[2] || '127.0.0.1';
  if (m[1] && isIP(host) !== 6)
    throw validationError(`--http: ${JSON.stringify(host)} in brackets is not an IPv6 address`, { http: text });
  return { host, port };
}

/** How a host is written in a URL (IPv6 in brackets). */
export function urlHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}
