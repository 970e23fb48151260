import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ChecksumWorkspaceTruth } from '../../../src/git/checksum';
import { diffManifests, listFiles, md5File } from '../../../src/git/checksumManifest';
import type { Manifest } from '../../../src/git/checksumManifest';
import { GitError } from '../../../src/git/errors';
import { tempDir } from '../../helpers/tmp';
import { write } from './gitFixture';

/** A workspace whose files were last modified well before any manifest (outside the racy window). */
function workspace(files: Record<string, string | Buffer>): string {
  const root = tempDir('agent-ledger-sum-');
  write(root, files);
  const old = new Date(Date.now() - 60_000);
  for (const file of Object.keys(files)) fs.utimesSync(path.join(root, file), old, old);
  return root;
}

function counting(): { hashed: string[]; truth: (root: string) => ChecksumWorkspaceTruth } {
  const hashed: string[] = [];
  return {
    hashed,
    truth: (root) =>
      new ChecksumWorkspaceTruth(root, path.join(root, '.agent-ledger', 'snapshots'), {
        hashFile: (file, isLink) => {
          hashed.push(path.relative(root, file).split(path.sep).join('/'));
          return md5File(file, isLink);
        },
      }),
  };
}

test('a checksum manifest sees added, modified, deleted and renamed files', async () => {
  const root = workspace({
    'a.txt': 'a\n',
    'b.txt': 'b\n',
    'gone.txt': 'g\n',
    'old/name.txt': 'same content\n',
    e1: '',
    'sub/x.bin': 'x',
  });
  const truth = counting().truth(root);
  const start = await truth.snapshot('start');
  assert.equal(start.type, 'checksum');
  assert.equal(start.head, null);

  write(root, { 'b.txt': 'b changed\n', 'new dir/ünï "q".txt': 'n\n', e2: '' });
  fs.rmSync(path.join(root, 'gone.txt'));
  fs.rmSync(path.join(root, 'e1'));
  fs.mkdirSync(path.join(root, 'new'));
  fs.renameSync(path.join(root, 'old/name.txt'), path.join(root, 'new/name.txt'));

  const changes = await truth.changesSince(start);
  assert.deepEqual(changes.files, {
    added: ['e2', 'new dir/ünï "q".txt'],
    modified: ['b.txt'],
    deleted: ['e1', 'gone.txt'],
    renamed: [{ from: 'old/name.txt', to: 'new/name.txt' }],
  });
  assert.deepEqual(changes.commits, []);
  assert.equal(changes.to.type, 'checksum');
  assert.ok(fs.existsSync(path.join(root, '.agent-ledger', 'snapshots', `${changes.to.id}.json`)));
});

test('manifests honour nested .gitignore files and skip .git, node_modules and .agent-ledger', async () => {
  const root = workspace({
    '.gitignore': '*.log\n/build/\n!keep.log\n',
    'app.log': 'ignored',
    'keep.log': 'negated, so kept',
    'build/out.js': 'ignored',
    'src/build/out.js': 'kept: /build/ is anchored to the root',
    'src/.gitignore': 'generated/\n*.tmp\n!important.log\n',
    'src/generated/g.ts': 'ignored by the nested file',
    'src/a.tmp': 'ignored by the nested file',
    'src/important.log': 'unignored by the nested file',
    'src/main.ts': 'kept',
    'other/a.tmp': 'kept: the nested rule applies under src/ only',
    'node_modules/pkg/index.js': 'skipped',
    'src/node_modules/x.js': 'skipped',
    '.git/config': 'skipped',
    '.agent-ledger/ledger.db': 'skipped',
  });
  const files = (await listFiles(root)).map((f) => f.relative).sort();
  assert.deepEqual(files, [
    '.gitignore',
    'keep.log',
    'other/a.tmp',
    'src/.gitignore',
    'src/build/out.js',
    'src/important.log',
    'src/main.ts',
  ]);
});

test('unchanged files are not hashed again; changed and recently modified ones are', async () => {
  const root = workspace({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
  const { hashed, truth: make } = counting();
  const truth = make(root);
  const start = await truth.snapshot('start');
  assert.deepEqual([...hashed].sort(), ['a.txt', 'b.txt', 'c.txt']);

  hashed.length = 0;
  write(root, { 'b.txt': 'b, edited\n' });
  const old = new Date(Date.now() - 30_000);
  fs.utimesSync(path.join(root, 'b.txt'), old, old);
  const changes = await truth.changesSince(start);
  assert.deepEqual(hashed, ['b.txt'], 'only the file whose size/mtime changed was read');
  assert.deepEqual(changes.files.modified, ['b.txt']);

  // A fresh instance (another process) reuses the stored manifest the same way.
  hashed.length = 0;
  await make(root).changesSince(changes.to);
  assert.deepEqual(hashed, []);

  // Racy rule: a file modified within 2 s of the manifest is re-read even with the same size and mtime.
  write(root, { 'c.txt': 'C\n' });
  const recent = await truth.snapshot('recent');
  hashed.length = 0;
  await truth.changesSince(recent);
  assert.deepEqual(hashed, ['c.txt']);
});

test('an edit that keeps size and mtime within the racy window is still detected', async () => {
  const root = workspace({ 'a.txt': 'aaa\n' });
  const truth = counting().truth(root);
  write(root, { 'a.txt': 'bbb\n' });
  const stamp = fs.statSync(path.join(root, 'a.txt')).mtime;
  const start = await truth.snapshot('start');
  write(root, { 'a.txt': 'ccc\n' });
  fs.utimesSync(path.join(root, 'a.txt'), stamp, stamp);
  assert.deepEqual((await truth.changesSince(start)).files.modified, ['a.txt']);
});

test('rewind needs Git: fileAt and restore throw unsupported; keep is a no-op', async () => {
  const root = workspace({ 'a.txt': 'a\n' });
  const truth = counting().truth(root);
  const snap = await truth.snapshot('s');
  await truth.keep(snap, 'task-1');
  await assert.rejects(
    truth.fileAt(snap, 'a.txt'),
    (ex) => GitError.is(ex, 'unsupported') && /Git repository/.test((ex as Error).message),
  );
  await assert.rejects(truth.restore(snap, ['a.txt']), (ex) => GitError.is(ex, 'unsupported'));
  const missing = { ...snap, id: 'nope' };
  await assert.rejects(truth.changesSince(missing), (ex) => GitError.is(ex, 'snapshotMissing'));
  await assert.rejects(truth.changesSince({ ...snap, id: '../../etc/passwd' }), (ex) =>
    GitError.is(ex, 'snapshotMissing'),
  );
});

test('manifests are written atomically: only complete JSON files remain in the data dir', async () => {
  const root = workspace({ 'a.txt': 'a\n' });
  const truth = counting().truth(root);
  const snap = await truth.snapshot('s');
  const dir = path.join(root, '.agent-ledger', 'snapshots');
  assert.deepEqual(fs.readdirSync(dir), [`${snap.id}.json`]);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, `${snap.id}.json`), 'utf8')) as Manifest;
  assert.equal(manifest.files['a.txt'][0], '60b725f10c9c85c70d97880dfe8191b3');
  assert.equal(manifest.files['a.txt'][1], 2);
});

test('diffManifests pairs each deleted file with at most one added file of the same content', () => {
  const manifest = (files: Record<string, string>): Manifest => ({
    version: 1,
    id: 'x',
    label: '',
    takenAt: '',
    scannedAtMs: 0,
    files: Object.fromEntries(Object.entries(files).map(([f, md5]) => [f, [md5, 1, 0]])),
  });
  const changes = diffManifests(
    manifest({ 'a/x.txt': 'h1', 'b.txt': 'h2' }),
    manifest({ 'c/x.txt': 'h1', 'copy.txt': 'h1', 'd.txt': 'h2' }),
  );
  assert.deepEqual(changes.renamed, [
    { from: 'a/x.txt', to: 'c/x.txt' },
    { from: 'b.txt', to: 'd.txt' },
  ]);
  assert.deepEqual(changes.added, ['copy.txt']);
  assert.deepEqual(changes.deleted, []);
});
