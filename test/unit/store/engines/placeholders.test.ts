import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toPgPlaceholders } from '../../../../src/store/postgres/placeholders';
import { StoreError } from '../../../../src/store/errors';

test('? becomes $1, $2, … in order', () => {
  assert.equal(
    toPgPlaceholders('SELECT * FROM t WHERE a = ? AND b IN (?, ?) LIMIT ?'),
    'SELECT * FROM t WHERE a = $1 AND b IN ($2, $3) LIMIT $4',
  );
  assert.equal(toPgPlaceholders('SELECT 1'), 'SELECT 1');
});

test('a ? inside string literals, quoted identifiers and comments stays', () => {
  assert.equal(toPgPlaceholders("SELECT '?', 'it''s ?', ? FROM t"), "SELECT '?', 'it''s ?', $1 FROM t");
  assert.equal(
    toPgPlaceholders('SELECT "what?", "a""?" FROM t WHERE x = ?'),
    'SELECT "what?", "a""?" FROM t WHERE x = $1',
  );
  assert.equal(toPgPlaceholders('SELECT ? -- why?\n, ?'), 'SELECT $1 -- why?\n, $2');
  assert.equal(toPgPlaceholders('SELECT /* ? /* nested ? */ still ? */ ?'), 'SELECT /* ? /* nested ? */ still ? */ $1');
  assert.equal(
    toPgPlaceholders("SELECT E'\\' ?', ?"),
    "SELECT E'\\' ?', $1",
    'E strings escape quotes with a backslash',
  );
  assert.equal(toPgPlaceholders("SELECT 'a\\', ?"), "SELECT 'a\\', $1", 'standard strings do not');
  assert.equal(toPgPlaceholders('SELECT $$ ? $$, $tag$ ?$$ ? $tag$, ?'), 'SELECT $$ ? $$, $tag$ ?$$ ? $tag$, $1');
  assert.equal(toPgPlaceholders('SELECT a$b, ?'), 'SELECT a$b, $1', 'a $ inside an identifier is not a dollar quote');
});

test('an unterminated literal or comment keeps the rest as it is', () => {
  assert.equal(toPgPlaceholders("SELECT ? , 'open ?"), "SELECT $1 , 'open ?");
  assert.equal(toPgPlaceholders('SELECT ? /* open ?'), 'SELECT $1 /* open ?');
});

test("SQLite's numbered ?NNN placeholders are refused", () => {
  assert.throws(
    () => toPgPlaceholders('SELECT ?1'),
    (err) => StoreError.is(err, 'sql'),
  );
});
