import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { Database, SqlJsStatic } from 'sql.js';
import { filesGrowInPlace, loadSqlJs, runGlue, sqlJsFile } from '../../../../src/store/embedded/sqlJs';
import { withFilesGrownInPlace } from '../../../../src/store/embedded/sqlJsFileGrowth';
import { seededRandom } from '../../../helpers/seededRandom';

/** sql.js as shipped (its files grown by copying), run from the same glue file. */
async function unpatchedSqlJs(): Promise<SqlJsStatic> {
  const file = sqlJsFile('sql-wasm.js');
  const init = runGlue(fs.readFileSync(file, 'utf8'), file);
  return init({ locateFile: (name: string) => sqlJsFile(name) } as Parameters<typeof init>[0]);
}

test('the installed sql.js grows its in-memory files in place: every place the patch replaces is found', async () => {
  const glue = fs.readFileSync(sqlJsFile('sql-wasm.js'), 'utf8');
  assert.notEqual(
    withFilesGrownInPlace(glue),
    null,
    'a sql.js upgrade moved the places sqlJsFileGrowth.ts replaces: match them again',
  );
  await loadSqlJs();
  assert.equal(filesGrowInPlace, true);
  assert.equal(withFilesGrownInPlace('some other glue'), null, 'an unknown glue is left as it is');
});

/**
 * The same seeded statements on sql.js as shipped and on the store's sql.js: inserts that grow the
 * file past its capacity again and again, deletes, rollbacks of growing transactions (SQLite
 * truncates the file back), VACUUM (truncates it), an image exported and opened again. Every
 * exported image must be byte for byte the same.
 */
test('files grown in place hold exactly the bytes sql.js as shipped holds, through growth, rollback, VACUUM and reopening', async () => {
  const [shipped, ours] = [await unpatchedSqlJs(), await loadSqlJs()];
  const random = seededRandom(20261124);
  const steps: ((db: Database) => void)[] = [];
  for (let i = 0; i < 60; i++) {
    const pick = random();
    const n = 1 + Math.floor(random() * 400);
    const size = 1 + Math.floor(random() * 3000);
    const tag = `s${i}`;
    if (pick < 0.55) {
      steps.push((db) => {
        db.exec('BEGIN');
        const st = db.prepare('INSERT INTO t (v) VALUES (?)');
        for (let k = 0; k < n; k++) st.run([`${tag}-${k}-${'x'.repeat(size)}`]);
        st.free();
        db.exec('COMMIT');
      });
    } else if (pick < 0.7) {
      steps.push((db) => {
        db.exec('BEGIN');
        const st = db.prepare('INSERT INTO t (v) VALUES (?)');
        for (let k = 0; k < n; k++) st.run([`${tag}-${'y'.repeat(size)}`]);
        st.free();
        db.exec('ROLLBACK');
      });
    } else if (pick < 0.85) {
      steps.push((db) => db.run('DELETE FROM t WHERE id % ? = 0', [2 + (n % 5)]));
    } else if (pick < 0.92) {
      steps.push((db) => db.exec('VACUUM'));
    } else {
      steps.push((db) => db.run('UPDATE t SET v = v || ? WHERE id % 7 = ?', ['z'.repeat(size % 500), n % 7]));
    }
  }
  const run = (SQL: SqlJsStatic): Uint8Array[] => {
    let db = new SQL.Database();
    db.exec('PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const images: Uint8Array[] = [];
    steps.forEach((step, i) => {
      step(db);
      if (i % 10 === 9) {
        const image = db.export();
        images.push(image);
        db.close();
        db = new SQL.Database(image);
        db.exec('PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF');
      }
    });
    assert.equal(db.exec('PRAGMA integrity_check')[0].values[0][0], 'ok');
    images.push(db.export());
    db.close();
    return images;
  };
  const expected = run(shipped);
  const actual = run(ours);
  assert.ok(
    Math.max(...expected.map((i) => i.length)) > 4 * 1024 * 1024,
    'the files grew well past 1 MiB (where MEMFS grows by an eighth)',
  );
  assert.equal(actual.length, expected.length);
  actual.forEach((image, i) => assert.ok(Buffer.from(image).equals(Buffer.from(expected[i])), `image ${i} differs`));
});
