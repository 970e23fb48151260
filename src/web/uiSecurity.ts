import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Who may talk to `agent-ledger ui`. It listens on loopback only, and every request must carry
 * the random token printed once when it started (like Jupyter): in the address the person opens
 * (`/?token=…`, exchanged at once for an HttpOnly, SameSite=Strict cookie and a redirect, so the
 * token leaves the address bar and the history) or in that cookie. Requests naming another host
 * (DNS rebinding: a page of evil.example resolving to 127.0.0.1) or coming from another origin
 * are refused before anything else, token or not. The token is compared as a digest in constant
 * time and is never logged: a request is logged by its method and path only.
 */
export interface UiSecurity {
  /** The token, for the one address printed at start. */
  readonly token: string;
  /** The cookie's name: per port, since browsers do not keep cookies apart by port. */
  readonly cookieName: string;
  /** Host header values this server answers to. */
  readonly hosts: ReadonlySet<string>;
  /** Origins a browser page of this server sends. */
  readonly origins: ReadonlySet<string>;
}

export function uiSecurity(port: number, token = randomBytes(32).toString('base64url')): UiSecurity {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  return {
    token,
    cookieName: `agent-ledger-ui-${port}`,
    hosts: new Set(hosts),
    origins: new Set(hosts.map((h) => `http://${h}`)),
  };
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Constant-time comparison of a presented token with ours. */
export function tokenMatches(security: UiSecurity, presented: string | undefined | null): boolean {
  if (!presented) return false;
  return timingSafeEqual(digest(presented), digest(security.token));
}

/** Why a request is refused, before any route runs; null when it may go on. */
export type Refusal = { status: 403 | 401; reason: string } | null;

/**
 * Host and Origin first (a foreign page is refused even with a token), then the token: in the
 * query (`?token=`, only on a page load: it is turned into the cookie) or the cookie.
 */
export function checkRequest(security: UiSecurity, req: IncomingMessage, url: URL): Refusal {
  const host = req.headers.host?.toLowerCase();
  if (!host || !security.hosts.has(host)) return { status: 403, reason: 'this server answers only to its own address' };
  const origin = req.headers.origin;
  if (origin !== undefined && !security.origins.has(origin.toLowerCase()))
    return { status: 403, reason: 'requests from other origins are refused' };
  // A page of another site can still send a simple request without Origin (an <img>, a form in
  // some browsers); the browser says where it came from: only this site's pages, or the person typing the address.
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none' && !isTokenNavigation(security, req, url))
    return { status: 403, reason: 'requests from other sites are refused' };
  // A change must say where it comes from: browsers send Origin on every POST.
  if (req.method !== 'GET' && req.method !== 'HEAD' && origin === undefined)
    return { status: 403, reason: 'a change needs an Origin header' };
  if (tokenMatches(security, cookieOf(req, security.cookieName))) return null;
  if (req.method === 'GET' && tokenMatches(security, url.searchParams.get('token'))) return null;
  return {
    status: 401,
    reason: 'open the address `agent-ledger ui` printed (it carries the token); this request has no valid token',
  };
}

/**
 * The person's browser opening the printed address from elsewhere: `--open` hands the browser a
 * local page that leads to it (a `file://` page is another site). Only a page load of `/` with
 * the token itself passes: knowing the token is the proof, and the answer only sets the cookie.
 */
export function isTokenNavigation(security: UiSecurity, req: IncomingMessage, url: URL): boolean {
  return (
    req.method === 'GET' &&
    req.headers['sec-fetch-mode'] === 'navigate' &&
    url.pathname === '/' &&
    tokenMatches(security, url.searchParams.get('token'))
  );
}

/**
 * A view's WebSocket: its own Host, an Origin of its own pages (a browser always sends one on a
 * WebSocket handshake, and cookies go along even from other sites' pages: the Origin is what
 * tells them apart), and the cookie — the token in an address opens pages, not views.
 */
export function checkSocket(security: UiSecurity, req: IncomingMessage): Refusal {
  const host = req.headers.host?.toLowerCase();
  if (!host || !security.hosts.has(host)) return { status: 403, reason: 'this server answers only to its own address' };
  const origin = req.headers.origin?.toLowerCase();
  if (origin === undefined || !security.origins.has(origin))
    return { status: 403, reason: 'views are opened only by the pages of this server' };
  if (tokenMatches(security, cookieOf(req, security.cookieName))) return null;
  return { status: 401, reason: 'no valid token: open the address `agent-ledger ui` printed' };
}

export function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The cookie that replaces the token in the address: the browser sends it back to this server only. */
export function sessionCookie(security: UiSecurity): string {
  return `${security.cookieName}=${security.token}; HttpOnly; SameSite=Strict; Path=/`;
}

/** Headers of every answer: nothing from elsewhere, no framing, no referrer (the token never leaks in one). */
export const securityHeaders: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};
