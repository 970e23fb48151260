import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isLoopback, parseHttpAddress, urlHost } from '../../../../src/mcp/http/httpAddress';
import { checkBearer } from '../../../../src/mcp/http/bearerAuth';
import { LedgerError } from '../../../../src/core/errors';
import { localCaller } from '../../../../src/core/caller';

test('--http [HOST:]PORT: loopback unless a host is named; bad values refused with the shapes that work', () => {
  assert.deepEqual(parseHttpAddress('8080'), { host: '127.0.0.1', port: 8080 });
  assert.deepEqual(parseHttpAddress('0.0.0.0:0'), { host: '0.0.0.0', port: 0 });
  assert.deepEqual(parseHttpAddress('[::1]:9'), { host: '::1', port: 9 });
  assert.deepEqual(parseHttpAddress('ledger.local:443'), { host: 'ledger.local', port: 443 });
  for (const bad of ['', 'x', '65536', '1.2.3.4', ':80', '[example.com]:80', '::1:80', '80 '.repeat(2)])
    assert.throws(
      () => parseHttpAddress(bad),
      (e: unknown) => LedgerError.is(e, 'ValidationError') && /\[HOST:\]PORT|IPv6/.test((e as Error).message),
      JSON.stringify(bad),
    );
  assert.equal(
    isLoopback('127.0.0.1') && isLoopback('::1') && isLoopback('localhost') && isLoopback('127.8.9.1'),
    true,
  );
  assert.equal(isLoopback('0.0.0.0') || isLoopback('10.0.0.1') || isLoopback('localhost.evil.example'), false);
  assert.equal(urlHost('::1'), '[::1]');
});

test('bearer check: missing, malformed and unknown are told apart from a verified caller only', async () => {
  const me = localCaller();
  const verify = async (secret: string) => (secret === 'alt_good' ? me : null);
  assert.deepEqual(await checkBearer(undefined, verify), { kind: 'missing' });
  assert.deepEqual(await checkBearer('  ', verify), { kind: 'missing' });
  for (const header of ['Basic abc', 'Bearer', 'Bearer alt_bad', 'Bearer a b', `Bearer ${'x'.repeat(600)}`])
    assert.deepEqual(await checkBearer(header, verify), { kind: 'refused' }, header);
  assert.deepEqual(await checkBearer('bearer alt_good', verify), { kind: 'verified', caller: me, secret: 'alt_good' });
  const failing = async () => {
    throw new Error('store down');
  };
  assert.deepEqual(await checkBearer('Bearer alt_good', failing), { kind: 'refused' }, 'a failing check refuses');
});
