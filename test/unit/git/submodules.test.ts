/**
 * Work inside a submodule: a real superproject with a real submodule (added with
 * `git submodule add` from a local repository), edited in its working tree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GitRepo } from '../../../src/git/gitRepo';
import { GitWorkspaceTruth } from '../../../src/git/gitWorkspaceTruth';
import { commit, git, makeRepo, read, userState, write } from './gitFixture';

/** A superproject with `libs/sub` (holding x.txt, y.txt and a nested submodule `deep`). */
function superproject(): { root: string; sub: string } {
  const deep = makeRepo({ 'd.txt': 'deep\n' });
  const lib = makeRepo({ 'x.txt': 'x\n', 'y.txt': 'y\n' });
  git(lib, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', deep, 'deep');
  commit(lib, 'add deep');
  const root = makeRepo({ 'top.txt': 'top\n' });
  git(root, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'libs/sub');
  git(root, '-c', 'protocol.file.allow=always', 'submodule', 'update', '-q', '--init', '--recursive');
  commit(root, 'add submodule');
  return { root, sub: path.join(root, 'libs', 'sub') };
}

async function truthOf(folder: string): Promise<GitWorkspaceTruth> {
  return new GitWorkspaceTruth(await GitRepo.open(folder));
}

test('uncommitted edits inside a submodule are reported as its files, nested submodules included', async () => {
  const { root, sub } = superproject();
  const truth = await truthOf(root);
  const start = await truth.snapshot('start');
  write(sub, { 'x.txt': 'x changed\n', 'new.txt': 'new\n', 'deep/d.txt': 'deep changed\n' });
  fs.rmSync(path.join(sub, 'y.txt'));
  write(root, { 'top.txt': 'top changed\n' });
  const changes = await truth.changesSince(start);
  assert.deepEqual(changes.files, {
    added: ['libs/sub/new.txt'],
    modified: ['libs/sub/deep/d.txt', 'libs/sub/x.txt', 'top.txt'],
    deleted: ['libs/sub/y.txt'],
    renamed: [],
  });
});

test('what was already dirty in the submodule before the task drops out; commits made inside it count', async () => {
  const { root, sub } = superproject();
  write(sub, { 'x.txt': 'dirty before the task\n' });
  const truth = await truthOf(root);
  const start = await truth.snapshot('start');
  write(sub, { 'y.txt': 'y committed in the submodule\n' });
  commit(sub, 'inside the submodule');
  const changes = await truth.changesSince(start);
  assert.deepEqual(changes.files.modified, ['libs/sub/y.txt']);
  assert.deepEqual(changes.files.added, []);
});

test('a clean submodule records its own commit: nothing reported, no object written in it', async () => {
  const { root, sub } = superproject();
  const truth = await truthOf(root);
  const objects = () => git(sub, 'count-objects', '-v');
  const before = objects();
  const start = await truth.snapshot('start');
  const changes = await truth.changesSince(start);
  assert.deepEqual(changes.files, { added: [], modified: [], deleted: [], renamed: [] });
  assert.equal(objects(), before);
  assert.equal(git(root, 'ls-tree', start.id, 'libs/sub').split(/\s+/)[2], git(sub, 'rev-parse', 'HEAD').trim());
});

test('snapshots leave the submodule’s index, HEAD and files alone; keep pins the submodule snapshot', async () => {
  const { root, sub } = superproject();
  write(sub, { 'x.txt': 'edited\n' });
  const before = {
    top: userState(root),
    sub: fs.readFileSync(path.join(git(sub, 'rev-parse', '--absolute-git-dir').trim(), 'index')),
  };
  const truth = await truthOf(root);
  const start = await truth.snapshot('start');
  await truth.keep(start, 'task-1');
  assert.deepEqual(fs.readFileSync(path.join(git(sub, 'rev-parse', '--absolute-git-dir').trim(), 'index')), before.sub);
  assert.equal(userState(root).headSha, before.top.headSha);
  assert.match(git(sub, 'status', '--porcelain'), /^ M x\.txt$/m);
  const pinned = git(sub, 'rev-parse', 'refs/agent-ledger/snapshots/task-1').trim();
  assert.equal(git(sub, 'show', `${pinned}:x.txt`), 'edited\n');
});

test('fileAt and rewind reach files inside the submodule', async () => {
  const { root, sub } = superproject();
  const truth = await truthOf(root);
  const start = await truth.snapshot('start');
  assert.equal((await truth.fileAt(start, 'libs/sub/x.txt'))?.toString(), 'x\n');
  assert.equal((await truth.fileAt(start, 'libs/sub/deep/d.txt'))?.toString(), 'deep\n');
  assert.equal(await truth.fileAt(start, 'libs/sub/missing.txt'), null);
  write(sub, { 'x.txt': 'agent edit\n', 'added.txt': 'added\n', 'deep/d.txt': 'deep edit\n' });
  const changes = await truth.changesSince(start);
  await truth.restore(start, [...changes.files.added, ...changes.files.modified]);
  assert.equal(read(sub, 'x.txt'), 'x\n');
  assert.equal(read(sub, 'deep/d.txt'), 'deep\n');
  assert.equal(fs.existsSync(path.join(sub, 'added.txt')), false);
  assert.equal(git(sub, 'status', '--porcelain'), '');
});

test('a submodule that is not checked out is reported by its path when its commit changes', async () => {
  const { root, sub } = superproject();
  const truth = await truthOf(root);
  const start = await truth.snapshot('start');
  write(sub, { 'x.txt': 'committed\n' });
  commit(sub, 'bump');
  git(root, 'add', 'libs/sub');
  commit(root, 'bump the submodule');
  git(root, 'submodule', 'deinit', '-q', '-f', 'libs/sub');
  const changes = await truth.changesSince(start);
  assert.deepEqual(changes.files.modified, ['libs/sub']);
});
