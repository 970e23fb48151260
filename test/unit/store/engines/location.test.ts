import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { parseLedgerLocation, redactUrl, resolvePassword } from '../../../../src/store/location';
import { StoreError } from '../../../../src/store/errors';
import { pgTarget } from '../../../../src/store/postgres/pgConnect';
import { pgStoreError } from '../../../../src/store/postgres/pgErrors';

test('a postgres:// or postgresql:// URL is a server, never a path', () => {
  assert.deepEqual(parseLedgerLocation('postgres://me@db.example:5432/ledger'), {
    kind: 'postgres',
    url: 'postgres://me@db.example:5432/ledger',
  });
  assert.equal(parseLedgerLocation('postgresql://me@localhost/ledger').kind, 'postgres');
  assert.equal(parseLedgerLocation('POSTGRES://me@localhost/ledger').kind, 'postgres');
});

test('paths stay paths: relative, absolute, file:// and Windows drive letters', () => {
  assert.deepEqual(parseLedgerLocation('ledger.db', '/work'), {
    kind: 'embedded',
    dbPath: path.resolve('/work', 'ledger.db'),
  });
  assert.deepEqual(parseLedgerLocation('/tmp/x/ledger.db'), { kind: 'embedded', dbPath: '/tmp/x/ledger.db' });
  assert.deepEqual(parseLedgerLocation('file:///tmp/x/ledger.db'), { kind: 'embedded', dbPath: '/tmp/x/ledger.db' });
  assert.equal(parseLedgerLocation('C:\\ledger\\ledger.db').kind, 'embedded');
});

test('other schemes and a bare postgres: are refused with a clear error', () => {
  for (const value of ['mysql://root@localhost/db', 'http://example.com/ledger', 'sqlite://x.db']) {
    assert.throws(
      () => parseLedgerLocation(value),
      (err) =>
        StoreError.is(err, 'badLocation') && /not supported/.test(err.message) && /postgres:\/\//.test(err.message),
      value,
    );
  }
  assert.throws(
    () => parseLedgerLocation('postgres:ledger'),
    (err) => StoreError.is(err, 'badLocation'),
  );
  assert.throws(
    () => parseLedgerLocation('  '),
    (err) => StoreError.is(err, 'badLocation'),
  );
});

test('the password comes from the URL, then AGENT_LEDGER_DB_PASSWORD, then PGPASSWORD', () => {
  const env = { AGENT_LEDGER_DB_PASSWORD: 'ours', PGPASSWORD: 'libpq' };
  assert.equal(resolvePassword('postgres://me:in%40url@h/db', env), 'in@url');
  assert.equal(resolvePassword('postgres://me@h/db', env), 'ours');
  assert.equal(resolvePassword('postgres://me@h/db', { PGPASSWORD: 'libpq' }), 'libpq');
  assert.equal(resolvePassword('postgres://me@h/db', {}), undefined);
});

test('the password never appears in a message, a description or a driver configuration shown to anyone', () => {
  const secret = 'S3cr3t-pw';
  assert.equal(redactUrl(`postgres://me:${secret}@h:5432/db`), 'postgres://me:***@h:5432/db');
  assert.equal(
    redactUrl(`postgres://me@h/db?password=${secret}&sslmode=require`),
    'postgres://me@h/db?password=***&sslmode=require',
  );
  const target = pgTarget(`postgres://me:${secret}@h:5432/db`, {});
  assert.equal(target.config.password, secret, 'the driver gets it');
  assert.ok(!target.display.includes(secret));
  const err = pgStoreError(
    Object.assign(new Error(`password authentication failed (${secret})`), { code: '28P01' }),
    target.display,
    target.password,
  );
  assert.ok(StoreError.is(err, 'authFailed'));
  assert.ok(!err.message.includes(secret), err.message);
  assert.throws(
    () => parseLedgerLocation(`postgres://me:${secret}@[bad/db`),
    (e) => StoreError.is(e, 'badLocation') && !(e as Error).message.includes(secret),
  );
});

test("a login with no password says so instead of repeating the driver's SASL wording", () => {
  const sasl = new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string');
  const missing = pgStoreError(sasl, 'postgres://me@h/db', undefined);
  assert.ok(StoreError.is(missing, 'authFailed'));
  assert.match(missing.message, /refused the login: no password was given\./);
  assert.ok(!/SASL/.test(missing.message), missing.message);
  const wrong = pgStoreError(
    Object.assign(new Error('password authentication failed for user "me"'), { code: '28P01' }),
    'postgres://me@h/db',
    'x',
  );
  assert.match(wrong.message, /password authentication failed/);
});
