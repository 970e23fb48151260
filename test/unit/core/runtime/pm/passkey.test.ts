import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  hashPasskey,
  hashSessionToken,
  newSessionToken,
  verifyPasskey,
} from '../../../../../src/core/runtime/pm/passkey';

test('a passkey is stored as a salted scrypt hash and verified in constant time', async () => {
  const a = await hashPasskey('correct horse');
  const b = await hashPasskey('correct horse');
  assert.notEqual(a.hash, b.hash, 'a fresh salt each time');
  assert.ok(!a.hash.includes('correct horse'));
  assert.equal(await verifyPasskey('correct horse', a), true);
  assert.equal(await verifyPasskey('wrong', a), false);
  assert.equal(await verifyPasskey('correct horse', { ...a, hash: 'AAAA' }), false, 'a malformed hash is a mismatch');
});

test('a session token is returned once and only its digest is kept', () => {
  const { token, tokenHash } = newSessionToken();
  assert.equal(hashSessionToken(token), tokenHash);
  assert.notEqual(token, tokenHash);
});
