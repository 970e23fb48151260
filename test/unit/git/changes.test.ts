import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GitError } from '../../../src/git/errors';
import { GitRepo } from '../../../src/git/gitRepo';
import { GitWorkspaceTruth } from '../../../src/git/gitWorkspaceTruth';
import { commit, git, makeRepo, write } from './gitFixture';

async function truthOf(folder: string): Promise<GitWorkspaceTruth> {
  return new GitWorkspaceTruth(await GitRepo.open(folder));
}

const lines = (n: number, word: string): string => Array.from({ length: n }, (_, i) => `${word} line ${i}\n`).join('');

test('changesSince attributes exactly what the task did', async () => {
  const root = makeRepo({
    'committed.txt': 'c\n',
    'edited.txt': 'e\n',
    'doomed.txt': 'd\n',
    'old name.txt': lines(20, 'rename me'),
    'dirty-before.txt': 'clean\n',
    'reverted.txt': 'r\n',
    '.gitignore': '*.log\nbuild/\n',
    'src/deep/file.ts': 'x\n',
  });
  write(root, { 'dirty-before.txt': 'dirty before the task\n', 'untracked-before.txt': 'u\n' });
  const truth = await truthOf(root);
  const start = await truth.snapshot('task');

  write(root, { 'committed.txt': 'committed during the task\n' });
  git(root, 'add', 'committed.txt');
  git(root, 'commit', '-q', '-m', 'task commit');
  write(root, {
    'edited.txt': 'uncommitted edit\n',
    'brand new.txt': 'new\n',
    'ünïcödé "quoted" \'name\'.txt': 'q\n',
    'src/deep/file.ts': 'changed in a subfolder\n',
    'debug.log': 'ignored\n',
    'build/out.js': 'ignored\n',
    'image.bin': Buffer.from([0, 1, 2, 255, 0, 10, 13]),
    'reverted.txt': 'changed for a moment\n',
  });
  write(root, { 'reverted.txt': 'r\n' });
  fs.rmSync(path.join(root, 'doomed.txt'));
  fs.renameSync(path.join(root, 'old name.txt'), path.join(root, 'new name.txt'));

  const { files, commits, to } = await truth.changesSince(start);
  assert.deepEqual(files, {
    added: ['brand new.txt', 'image.bin', 'ünïcödé "quoted" \'name\'.txt'],
    modified: ['committed.txt', 'edited.txt', 'src/deep/file.ts'],
    deleted: ['doomed.txt'],
    renamed: [{ from: 'old name.txt', to: 'new name.txt' }],
  });
  assert.deepEqual(
    commits.map((c) => c.subject),
    ['task commit'],
  );
  assert.equal(to.type, 'git');
  assert.equal(to.head, git(root, 'rev-parse', 'HEAD').trim());
});

test('a file dirty before the start and edited again during the task is listed', async () => {
  const root = makeRepo({ 'a.txt': 'a\n' });
  write(root, { 'a.txt': 'dirty\n' });
  const truth = await truthOf(root);
  const start = await truth.snapshot('s');
  assert.deepEqual((await truth.changesSince(start)).files.modified, [], 'unchanged since the start');
  write(root, { 'a.txt': 'dirty and edited\n' });
  assert.deepEqual((await truth.changesSince(start)).files.modified, ['a.txt']);
});

test('a file committed during the task and then left alone still counts; a commit that undoes an edit does not', async () => {
  const root = makeRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
  const truth = await truthOf(root);
  const start = await truth.snapshot('s');
  write(root, { 'a.txt': 'a2\n', 'b.txt': 'b2\n' });
  commit(root, 'change both');
  write(root, { 'b.txt': 'b\n' });
  commit(root, 'put b back');
  const changes = await truth.changesSince(start);
  assert.deepEqual(changes.files.modified, ['a.txt']);
  assert.deepEqual(
    changes.commits.map((c) => c.subject),
    ['change both', 'put b back'],
    'oldest first',
  );
});

test('commits carry sha, subject, author and an ISO date', async () => {
  const root = makeRepo();
  const truth = await truthOf(root);
  const start = await truth.snapshot('s');
  write(root, { 'x.txt': 'x\n' });
  const sha = commit(root, 'add x: "quoted" ünï');
  const [info] = (await truth.changesSince(start)).commits;
  assert.equal(info.sha, sha);
  assert.equal(info.subject, 'add x: "quoted" ünï');
  assert.equal(info.author, 'Test');
  assert.ok(!Number.isNaN(Date.parse(info.date)) && /T/.test(info.date), info.date);
});

test('from an unborn start every commit counts; after a rewrite only commits the start cannot reach', async () => {
  const root = makeRepo({});
  const truth = await truthOf(root);
  const unborn = await truth.snapshot('unborn');
  write(root, { 'one.txt': '1\n' });
  commit(root, 'one');
  write(root, { 'two.txt': '2\n' });
  commit(root, 'two');
  assert.deepEqual(
    (await truth.changesSince(unborn)).commits.map((c) => c.subject),
    ['one', 'two'],
  );

  const start = await truth.snapshot('before rewrite');
  write(root, { 'three.txt': '3\n' });
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '--amend', '-m', 'two, amended'); // the start head is no longer an ancestor
  write(root, { 'four.txt': '4\n' });
  commit(root, 'four');
  const changes = await truth.changesSince(start);
  assert.deepEqual(
    changes.commits.map((c) => c.subject),
    ['two, amended', 'four'],
  );
  assert.deepEqual(changes.files.added, ['four.txt', 'three.txt']);
});

test('no commit and no change gives empty lists; the same snapshot twice costs no diff', async () => {
  const root = makeRepo();
  const truth = await truthOf(root);
  const start = await truth.snapshot('s');
  const changes = await truth.changesSince(start);
  assert.deepEqual(changes.files, { added: [], modified: [], deleted: [], renamed: [] });
  assert.deepEqual(changes.commits, []);
  assert.equal((await truth.changesSince(start, start)).to, start);
});

test('changesSince between two given snapshots does not take a third', async () => {
  const root = makeRepo({ 'a.txt': 'a\n' });
  const truth = await truthOf(root);
  const first = await truth.snapshot('1');
  write(root, { 'a.txt': 'a2\n' });
  const second = await truth.snapshot('2');
  write(root, { 'later.txt': 'not part of the range\n' });
  const changes = await truth.changesSince(first, second);
  assert.deepEqual(changes.files.modified, ['a.txt']);
  assert.deepEqual(changes.files.added, []);
  assert.equal(changes.to, second);
});

test('an edit the index cannot see by stat data is still found (racy-git through the index copy)', async () => {
  const root = makeRepo({ 'a.txt': 'aaa\n' });
  git(root, 'config', 'core.trustctime', 'false');
  const file = path.join(root, 'a.txt');
  const past = new Date(Date.now() - 100_000);
  write(root, { 'a.txt': 'v1\n' });
  fs.utimesSync(file, past, past);
  git(root, 'add', 'a.txt'); // the index records a.txt with mtime `past`
  write(root, { 'a.txt': 'v2\n' }); // same size, same inode…
  fs.utimesSync(file, past, past); // …and the same mtime: stat data cannot tell
  // Git would still re-read a.txt because the index file is no newer than the entry (racy).
  fs.utimesSync(path.join(root, '.git', 'index'), past, past);
  const snap = await (await truthOf(root)).snapshot('racy');
  assert.equal(git(root, 'show', `${snap.id}:a.txt`), 'v2\n');
});

test('unknown or foreign snapshots are rejected as snapshotMissing', async () => {
  const root = makeRepo();
  const truth = await truthOf(root);
  const bogus = { type: 'git' as const, id: '1234567890123456789012345678901234567890', head: null, takenAt: '' };
  await assert.rejects(truth.changesSince(bogus), (ex) => GitError.is(ex, 'snapshotMissing'));
  const checksum = { type: 'checksum' as const, id: 'abc', head: null, takenAt: '' };
  await assert.rejects(truth.changesSince(checksum), (ex) => GitError.is(ex, 'snapshotMissing'));
  const injected = { type: 'git' as const, id: '--output=/tmp/x', head: null, takenAt: '' };
  await assert.rejects(truth.changesSince(injected), (ex) => GitError.is(ex, 'snapshotMissing'));
  const badHead = { ...(await truth.snapshot('s')), head: '--all' };
  await assert.rejects(truth.changesSince(badHead), (ex) => GitError.is(ex, 'snapshotMissing'));
});
