import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LedgerError } from '../../../src/core/errors';
import { GitError } from '../../../src/git/errors';
import { GitRepo } from '../../../src/git/gitRepo';
import { GitWorkspaceTruth } from '../../../src/git/gitWorkspaceTruth';
import { normalizeRepoPath } from '../../../src/git/restore';
import { git, makeRepo, read, userState, write } from './gitFixture';

async function truthOf(folder: string): Promise<GitWorkspaceTruth> {
  return new GitWorkspaceTruth(await GitRepo.open(folder));
}

const binary = Buffer.from([0, 1, 2, 10, 13, 255, 254, 0, 10]);

test('fileAt returns exact bytes, binary included, and null for a file the snapshot lacks', async () => {
  const root = makeRepo({ 'text.txt': 'hello\n', 'sub dir/ünï "q".txt': 'deep\n' });
  write(root, { 'data.bin': binary, 'untracked.txt': 'u\n' });
  const truth = await truthOf(root);
  const snap = await truth.snapshot('s');
  write(root, { 'text.txt': 'changed\n' });
  assert.deepEqual(await truth.fileAt(snap, 'data.bin'), binary);
  assert.equal((await truth.fileAt(snap, 'text.txt'))?.toString(), 'hello\n');
  assert.equal((await truth.fileAt(snap, './sub dir/ünï "q".txt'))?.toString(), 'deep\n');
  assert.equal((await truth.fileAt(snap, 'untracked.txt'))?.toString(), 'u\n');
  assert.equal(await truth.fileAt(snap, 'nope.txt'), null);
  assert.equal(await truth.fileAt(snap, 'sub dir'), null, 'a folder is not a file');
  const empty = await truth.snapshot('empty file');
  write(root, { 'empty.txt': '' });
  const withEmpty = await truth.snapshot('with empty file');
  assert.equal(await truth.fileAt(empty, 'empty.txt'), null);
  assert.deepEqual(await truth.fileAt(withEmpty, 'empty.txt'), Buffer.alloc(0));
});

test('fileAt and restore reject paths outside the repository', async () => {
  const root = makeRepo();
  const truth = await truthOf(root);
  const snap = await truth.snapshot('s');
  for (const bad of ['../x', 'a/../../x', '/etc/passwd', '', '.', '.git/config', 'sub/.GIT/hooks/x', 'a\0b']) {
    await assert.rejects(truth.fileAt(snap, bad), (ex) => GitError.is(ex, 'invalidPath'), JSON.stringify(bad));
    await assert.rejects(truth.restore(snap, [bad]), (ex) => GitError.is(ex, 'invalidPath'), JSON.stringify(bad));
  }
  assert.equal(normalizeRepoPath('./a//b/./c'), 'a/b/c');
});

test('restore puts back modified, deleted and binary files and removes files the snapshot lacks', async () => {
  const root = makeRepo({
    'keep.txt': 'keep\n',
    'edit.txt': 'original\n',
    'gone.txt': 'was here\n',
    'run.sh': '#!/bin/sh\n',
  });
  fs.chmodSync(path.join(root, 'run.sh'), 0o755);
  git(root, 'add', 'run.sh');
  write(root, { 'bin/data.bin': binary, 'staged.txt': 'staged\n' });
  git(root, 'add', 'staged.txt');
  const truth = await truthOf(root);
  const snap = await truth.snapshot('before the task');

  write(root, {
    'edit.txt': 'agent edit\n',
    'bin/data.bin': 'text now',
    'new/deep/file.txt': 'new\n',
    'keep.txt': 'keep edit\n',
  });
  fs.rmSync(path.join(root, 'gone.txt'));
  fs.rmSync(path.join(root, 'run.sh'));
  const indexBefore = userState(root).indexBytes;

  const { files } = await truth.changesSince(snap);
  const paths = [...files.added, ...files.modified, ...files.deleted];
  await truth.restore(
    snap,
    paths.filter((p) => p !== 'keep.txt'),
  );

  assert.equal(read(root, 'edit.txt'), 'original\n');
  assert.equal(read(root, 'gone.txt'), 'was here\n');
  assert.deepEqual(fs.readFileSync(path.join(root, 'bin/data.bin')), binary);
  assert.equal(fs.statSync(path.join(root, 'run.sh')).mode & 0o111, 0o111, 'the executable bit comes back');
  assert.equal(fs.existsSync(path.join(root, 'new')), false, 'the added file and the folders it needed are gone');
  assert.equal(read(root, 'keep.txt'), 'keep edit\n', 'paths not named are left alone');
  assert.equal(userState(root).indexBytes, indexBefore, 'restore does not touch the index');
  assert.match(git(root, 'diff', '--cached', '--name-only'), /staged\.txt/);
  const after = await truth.changesSince(snap);
  assert.deepEqual(after.files, { added: [], modified: ['keep.txt'], deleted: [], renamed: [] });
});

/** The error of a path leading out of the workspace through the link `link` (core/files/confinedPath.ts). */
const linkedOut = (link: string) => (ex: unknown) =>
  LedgerError.is(ex, 'ConfigError') && ex.data?.reason === 'pathOutsideWorkspace' && ex.data?.link === link;

test('restore replaces a symlink instead of writing through it, and never follows one out of the repository', async () => {
  const root = makeRepo({ 'target.txt': 'inside\n', 'dir/file.txt': 'in dir\n', 'dir/sub/deep.txt': 'deep\n' });
  const outside = fs.mkdtempSync(path.join(path.dirname(root), 'outside-'));
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside\n');
  const truth = await truthOf(root);
  const snap = await truth.snapshot('s');

  fs.rmSync(path.join(root, 'target.txt'));
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'target.txt'));
  await truth.restore(snap, ['target.txt']);
  assert.equal(fs.lstatSync(path.join(root, 'target.txt')).isSymbolicLink(), false);
  assert.equal(read(root, 'target.txt'), 'inside\n');
  assert.equal(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'outside\n');

  fs.rmSync(path.join(root, 'dir'), { recursive: true });
  fs.symlinkSync(outside, path.join(root, 'dir'));
  await assert.rejects(truth.restore(snap, ['dir/file.txt']), linkedOut('dir'));
  assert.equal(fs.existsSync(path.join(outside, 'file.txt')), false);
  await assert.rejects(truth.restore(snap, ['dir/sub/deep.txt']), linkedOut('dir'));
  await assert.rejects(truth.restore(snap, ['dir/sub/not-in-snapshot.txt']), linkedOut('dir'));
  assert.deepEqual(fs.readdirSync(outside), ['secret.txt'], 'no folder was created outside either');
  fs.rmSync(outside, { recursive: true, force: true });
});

test('restore brings back a symlink as a symlink', async () => {
  const root = makeRepo({ 'real.txt': 'r\n' });
  fs.symlinkSync('real.txt', path.join(root, 'link'));
  const truth = await truthOf(root);
  const snap = await truth.snapshot('s');
  fs.rmSync(path.join(root, 'link'));
  write(root, { link: 'a plain file now' });
  await truth.restore(snap, ['link']);
  assert.equal(fs.readlinkSync(path.join(root, 'link')), 'real.txt');
});

test('restore of more paths than one ls-tree call takes gets them all', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 450; i++) files[`many/f${i}.txt`] = `${i}\n`;
  const root = makeRepo(files);
  const truth = await truthOf(root);
  const snap = await truth.snapshot('s');
  fs.rmSync(path.join(root, 'many'), { recursive: true });
  await truth.restore(snap, Object.keys(files));
  assert.equal(fs.readdirSync(path.join(root, 'many')).length, 450);
  assert.equal(read(root, 'many/f449.txt'), '449\n');
});
