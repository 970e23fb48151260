import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openEngine } from '../../../../src/store/openEngine';
import type { LedgerEngine } from '../../../../src/store/engine';
import { StoreError } from '../../../../src/store/errors';
import { errorNumbers } from '../../../../src/core/errors';
import { createTestDatabase, pgEnv, pgSkip, withAdmin } from '../../../helpers/postgres';
import { mountTinyDisk, tinyDiskSkip } from '../../../helpers/tinyDisk';
import type { TinyDisk } from '../../../helpers/tinyDisk';
import { addWorkflow, workflowNames } from './engineKit';
import type { EmbeddedEngine } from '../../../../src/store/embedded/embeddedEngine';
import { LedgerStore } from '../../../../src/store/embedded/ledgerStore';
import { installCheckpoint } from '../../../../src/store/embedded/checkpointFiles';
import { prepareCheckpointImage } from '../../../../src/store/embedded/checkpointImage';
import { loadSqlJs } from '../../../../src/store/embedded/sqlJs';
import { storePaths } from '../../../../src/store/embedded/storePaths';

/**
 * A full disk, for real: a small tmpfs mounted for the test (root only; CI runs as root). A write
 * the file system refuses is a coded `diskFull` StoreError, never a raw ENOSPC; nothing
 * acknowledged is lost; the checkpoint leaves no temporary copy behind, full or after space came back.
 */

const disks: TinyDisk[] = [];
after(() => disks.forEach((d) => d.unmount()));

/** Writes workflows named `<prefix>-<n>-<3 KB>` until `failures` writes in a row are refused. */
async function writeUntilRefused(
  engine: LedgerEngine,
  prefix: string,
  failures: number,
): Promise<{ acknowledged: string[]; refused: unknown[] }> {
  const acknowledged: string[] = [];
  const refused: unknown[] = [];
  for (let n = 0; refused.length < failures && n < 100_000; n++) {
    // Random text: PostgreSQL compresses a repeated one to nothing.
    const name = `${prefix}-${n}-${randomBytes(1500).toString('hex')}`;
    try {
      await addWorkflow(engine, name);
      acknowledged.push(name);
      if (refused.length > 0) refused.length = 0; // only refusals in a row count
    } catch (err) {
      refused.push(err);
    }
  }
  return { acknowledged, refused };
}

function tempFiles(dir: string): string[] {
  return fs.readdirSync(dir).filter((name) => name.includes('.tmp'));
}

test(
  'embedded: a full disk refuses writes with a coded diskFull StoreError; nothing acknowledged is lost, no temp file stays',
  {
    skip: tinyDiskSkip,
  },
  async () => {
    const disk = mountTinyDisk(6 * 1024 * 1024);
    disks.push(disk);
    disk.reserve(2 * 1024 * 1024);
    const dbPath = path.join(disk.dir, 'ledger.db');
    // Checkpoints every 25 writes, so several run (and fail) while the disk is full.
    const engine = await openEngine(dbPath, { checkpointRecords: 25, backgroundCheckpointBytes: 256 * 1024 });
    try {
      const first = await writeUntilRefused(engine, 'a', 30);
      assert.ok(first.acknowledged.length > 100, `only ${first.acknowledged.length} writes fitted`);
      for (const err of first.refused) {
        assert.ok(StoreError.is(err, 'diskFull'), `a refusal was not diskFull: ${String(err)}`);
        assert.equal((err as StoreError).toJSON().code, errorNumbers.StoreError);
        assert.equal((err as StoreError).toJSON().data?.reason, 'diskFull');
        assert.match((err as Error).message, /no space left/i);
      }
      // A checkpoint on the full disk: the image copy does not fit, and goes.
      await assert.rejects((engine as EmbeddedEngine).checkpoint(), (err) => StoreError.is(err, 'diskFull'));
      // Let a checkpoint worker that is still running end before counting.
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.deepEqual(tempFiles(disk.dir), [], 'no temporary copy left while the disk is full');

      disk.free();
      const more: string[] = [];
      for (let n = 0; n < 60; n++) {
        const name = `b-${n}`;
        await addWorkflow(engine, name);
        more.push(name);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.deepEqual(tempFiles(disk.dir), [], 'no temporary copy left once space came back');

      const reopened = await openEngine(dbPath);
      try {
        assert.deepEqual(
          await workflowNames(reopened),
          [...first.acknowledged, ...more],
          'every acknowledged write, once',
        );
      } finally {
        await reopened.close();
      }
    } finally {
      await engine.close();
    }
  },
);

test(
  'embedded: an image a worker prepared that cannot be installed on a full disk is removed; the pair in place stays',
  {
    skip: tinyDiskSkip,
  },
  async () => {
    const disk = mountTinyDisk(2 * 1024 * 1024);
    disks.push(disk);
    const dbPath = path.join(disk.dir, 'ledger.db');
    const store = await LedgerStore.open({ dbPath });
    try {
      for (let i = 0; i < 20; i++)
        await store.write((tx) =>
          tx.run('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', [`w${i}`, 't', 't']),
        );
      await store.checkpoint();
      for (let i = 20; i < 25; i++)
        await store.write((tx) =>
          tx.run('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', [`w${i}`, 't', 't']),
        );
      const paths = storePaths(dbPath);
      const prepared = prepareCheckpointImage(await loadSqlJs(), dbPath, paths.image);
      const before = fs.readFileSync(paths.image);
      disk.fillUp();
      assert.throws(
        () => installCheckpoint(paths, prepared.tmp, prepared.seq),
        (err: NodeJS.ErrnoException) => err.code === 'ENOSPC',
      );
      assert.equal(fs.existsSync(prepared.tmp), false, 'the prepared image is removed');
      assert.deepEqual(tempFiles(disk.dir), []);
      assert.deepEqual(fs.readFileSync(paths.image), before, 'the image in place is untouched');
      disk.free();
      const reopened = await LedgerStore.open({ dbPath, readonly: true });
      assert.equal(reopened.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM workflows'))?.n, 25);
      reopened.close();
    } finally {
      store.close();
    }
  },
);

test(
  'PostgreSQL: a server out of disk space refuses the write with a coded diskFull StoreError',
  {
    skip: pgSkip || tinyDiskSkip,
  },
  async () => {
    // The ledger's tables on a tablespace of their own on a small tmpfs: the server's data files
    // cannot grow there (SQLSTATE 53100) while its WAL and catalogs stay on the big disk.
    const user = process.env.AGENT_LEDGER_TEST_PG_USER || undefined;
    const owner = user
      ? {
          uid: Number(execFileSync('id', ['-u', user], { encoding: 'utf8' })),
          gid: Number(execFileSync('id', ['-g', user], { encoding: 'utf8' })),
        }
      : undefined;
    const disk = mountTinyDisk(2 * 1024 * 1024, owner);
    disks.push(disk);
    disk.reserve(512 * 1024);
    const space = path.join(disk.dir, 'pg');
    fs.mkdirSync(space);
    if (owner) fs.chownSync(space, owner.uid, owner.gid);
    const tablespace = `ledger_tiny_${process.pid}`;
    await withAdmin((c) => c.query(`CREATE TABLESPACE ${tablespace} LOCATION '${space}'`));
    const db = await createTestDatabase();
    const engine = await openEngine(db.url, { migrate: true, env: pgEnv });
    try {
      await withAdmin((c) => c.query(`ALTER TABLE workflows SET TABLESPACE ${tablespace}`), db.name);
      const { acknowledged, refused } = await writeUntilRefused(engine, 'a', 5);
      assert.ok(acknowledged.length > 50, `only ${acknowledged.length} writes fitted`);
      for (const err of refused) {
        assert.ok(StoreError.is(err, 'diskFull'), `a refusal was not diskFull: ${String(err)}`);
        assert.doesNotMatch((err as Error).message, /INSERT INTO/, 'the message names the cause, not the statement');
      }
      disk.free();
      await addWorkflow(engine, 'after');
      assert.deepEqual(await workflowNames(engine), [...acknowledged, 'after']);
    } finally {
      await engine.close();
      await db.drop();
      await withAdmin((c) => c.query(`DROP TABLESPACE IF EXISTS ${tablespace}`));
    }
  },
);
