import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import * as nodeModule from 'node:module';
import { privateCacheFolder } from '../../../src/app/compileCache';
import { tempDir } from '../../helpers/tmp';

const posix = process.platform !== 'win32';
const mode = (p: string): number => fs.lstatSync(p).mode & 0o777;

/**
 * A compile cache is code the CLI will run: it is used only from a folder nobody else can write
 * (src/app/compileCache.ts). Each refusal below is a way another user could plant a cache file.
 */
test('the cache folder is created private (0700) under XDG_CACHE_HOME', { skip: !posix }, () => {
  const base = tempDir('agent-ledger-cache-');
  fs.chmodSync(base, 0o755);
  const dir = privateCacheFolder({ XDG_CACHE_HOME: base });
  assert.equal(dir, path.join(base, 'agent-ledger', 'compile-cache'));
  assert.equal(mode(dir!), 0o700);
  assert.equal(mode(path.join(base, 'agent-ledger')), 0o700);
  assert.equal(privateCacheFolder({ XDG_CACHE_HOME: base }), dir, 'found again as it is');
});

test('a cache folder others can write or read, or whose parent others can write, is not used', { skip: !posix }, () => {
  const base = tempDir('agent-ledger-cache-');
  fs.chmodSync(base, 0o755);
  const dir = privateCacheFolder({ XDG_CACHE_HOME: base })!;
  fs.chmodSync(dir, 0o770);
  assert.equal(privateCacheFolder({ XDG_CACHE_HOME: base }), undefined, 'group-writable folder');
  fs.chmodSync(dir, 0o705);
  assert.equal(privateCacheFolder({ XDG_CACHE_HOME: base }), undefined, 'readable by others');
  fs.chmodSync(dir, 0o700);
  fs.chmodSync(base, 0o777);
  assert.equal(
    privateCacheFolder({ XDG_CACHE_HOME: base }),
    undefined,
    'a parent anyone can write (the folder could be swapped)',
  );
  fs.chmodSync(base, 0o755);
  assert.equal(privateCacheFolder({ XDG_CACHE_HOME: base }), dir, 'usable again once private');
});

test('a link in place of the cache folder is not followed', { skip: !posix }, () => {
  const base = tempDir('agent-ledger-cache-');
  fs.chmodSync(base, 0o755);
  const elsewhere = tempDir('agent-ledger-planted-');
  fs.chmodSync(elsewhere, 0o700);
  fs.mkdirSync(path.join(base, 'agent-ledger'), { mode: 0o700 });
  fs.symlinkSync(elsewhere, path.join(base, 'agent-ledger', 'compile-cache'));
  assert.equal(privateCacheFolder({ XDG_CACHE_HOME: base }), undefined);
});

test('a cache folder owned by another user is not used', { skip: !posix || process.getuid?.() !== 0 }, () => {
  const base = tempDir('agent-ledger-cache-');
  fs.chmodSync(base, 0o755);
  const dir = privateCacheFolder({ XDG_CACHE_HOME: base })!;
  fs.chownSync(dir, 4321, 4321);
  assert.equal(privateCacheFolder({ XDG_CACHE_HOME: base }), undefined);
});

test(
  'the built command runs with the cache on a Node that has one, and without on one that has not',
  { skip: !posix },
  () => {
    const cli = path.resolve(__dirname, '../../../dist/cli.js');
    const base = tempDir('agent-ledger-cache-');
    fs.chmodSync(base, 0o755);
    const run = spawnSync(process.execPath, [cli, '--version'], {
      encoding: 'utf8',
      env: { ...process.env, XDG_CACHE_HOME: base },
    });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^\d+\.\d+\.\d+/);
    const hasCache = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';
    const folder = path.join(base, 'agent-ledger', 'compile-cache');
    assert.equal(
      fs.existsSync(folder) && fs.readdirSync(folder).length > 0,
      hasCache,
      hasCache ? 'Node wrote its cache into the private folder' : 'no cache on a Node without one',
    );
  },
);
