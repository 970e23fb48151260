// Who may talk to `agent-ledger ui`: the checks every request passes before any route (the real
// server's refusals in a browser are in test/e2e/webBoard.e2e.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import {
  checkRequest,
  checkSocket,
  cookieOf,
  sessionCookie,
  tokenMatches,
  uiSecurity,
} from '../../../src/web/uiSecurity';

const security = uiSecurity(4321, 'the-token');
const req = (method: string, headers: Record<string, string>): IncomingMessage =>
  ({ method, headers }) as unknown as IncomingMessage;
const url = (p: string) => new URL(p, 'http://placeholder');
const cookie = `${security.cookieName}=the-token`;

test('the token: in the cookie, or in the address of a page load; compared in constant time', () => {
  assert.equal(tokenMatches(security, 'the-token'), true);
  assert.equal(tokenMatches(security, 'the-toke'), false);
  assert.equal(tokenMatches(security, undefined), false);
  assert.equal(checkRequest(security, req('GET', { host: '127.0.0.1:4321', cookie }), url('/api/views/board')), null);
  assert.equal(checkRequest(security, req('GET', { host: 'localhost:4321' }), url('/?token=the-token')), null);
  assert.equal(checkRequest(security, req('GET', { host: '127.0.0.1:4321' }), url('/api/views/board'))?.status, 401);
  // The address's token is for a page load: a change must carry the cookie.
  assert.equal(
    checkRequest(
      security,
      req('POST', { host: '127.0.0.1:4321', origin: 'http://127.0.0.1:4321' }),
      url('/api/views/x?token=the-token'),
    )?.status,
    401,
  );
  assert.equal(cookieOf(req('GET', { cookie: `a=1; ${cookie}; b=2` }), security.cookieName), 'the-token');
  assert.match(sessionCookie(security), /^agent-ledger-ui-4321=the-token; HttpOnly; SameSite=Strict; Path=\/$/);
});

test('another host, origin or site is refused before the token is looked at', () => {
  const refused = (headers: Record<string, string>, method = 'GET') =>
    checkRequest(security, req(method, { cookie, ...headers }), url('/api/views/board'))?.status;
  assert.equal(refused({ host: 'evil.example:4321' }), 403, 'DNS rebinding');
  assert.equal(refused({ host: '127.0.0.1:9999' }), 403, 'another port');
  assert.equal(refused({}), 403, 'no Host');
  assert.equal(refused({ host: '127.0.0.1:4321', origin: 'http://evil.example' }), 403);
  assert.equal(refused({ host: '127.0.0.1:4321', 'sec-fetch-site': 'cross-site' }), 403);
  assert.equal(refused({ host: '127.0.0.1:4321' }, 'POST'), 403, 'a change without Origin');
  assert.equal(refused({ host: '127.0.0.1:4321', origin: 'http://127.0.0.1:4321' }, 'POST'), undefined);
});

test("a view's WebSocket: its own host, an Origin of its own pages and the cookie; the address's token opens pages only", () => {
  const socket = (headers: Record<string, string>) => checkSocket(security, req('GET', headers))?.status;
  const own = { host: '127.0.0.1:4321', origin: 'http://127.0.0.1:4321' };
  assert.equal(socket({ ...own, cookie }), undefined);
  assert.equal(socket(own), 401, 'no cookie');
  assert.equal(socket({ ...own, cookie: `${security.cookieName}=wrong` }), 401);
  assert.equal(socket({ host: own.host, cookie }), 403, 'no Origin: not a page of this server');
  assert.equal(socket({ ...own, origin: 'http://evil.example', cookie }), 403, 'cross-site WebSocket hijacking');
  assert.equal(socket({ ...own, host: 'evil.example:4321', cookie }), 403, 'DNS rebinding');
});
