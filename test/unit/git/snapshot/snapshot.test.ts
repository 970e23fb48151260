import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GitError } from '../../../../src/git/errors';
import { GitRepo } from '../../../../src/git/gitRepo';
import { GitWorkspaceTruth } from '../../../../src/git/gitWorkspaceTruth';
import { commit, git, keptPrivateIndex, makeRepo, status, userState, write } from '../gitFixture';
import { tempDir } from '../../../helpers/tmp';

async function truthOf(folder: string): Promise<GitWorkspaceTruth> {
  return new GitWorkspaceTruth(await GitRepo.open(folder));
}

/** A repository with every kind of user state: staged, unstaged, untracked, ignored, a stash, branches. */
function busyRepo(): string {
  const root = makeRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n', '.gitignore': 'ignored/\n', 'src/c.ts': 'c\n' });
  git(root, 'branch', 'feature');
  git(root, 'tag', 'v1');
  write(root, { 'a.txt': 'stashed\n' });
  git(root, 'stash', 'push', '-q', '-m', 'user stash');
  write(root, { 'a.txt': 'staged\n' });
  git(root, 'add', 'a.txt');
  write(root, {
    'a.txt': 'staged then edited\n',
    'b.txt': 'unstaged\n',
    'new.txt': 'untracked\n',
    'ignored/x.log': 'log\n',
  });
  return root;
}

test('snapshot and changesSince leave HEAD, index, branches, stash, status and file mtimes untouched', async () => {
  const root = busyRepo();
  const statusBefore = status(root);
  const before = userState(root);
  const truth = await truthOf(root);
  const start = await truth.snapshot('task 1');
  write(root, { 'later.txt': 'x\n' }); // a change, so changesSince has work to do
  const laterStat = fs.statSync(path.join(root, 'later.txt'));
  const after = userState(root);
  await truth.changesSince(start);
  const afterChanges = userState(root);

  assert.deepEqual({ ...afterChanges, files: '' }, { ...before, files: '' });
  assert.equal(after.files, afterChanges.files, 'no working file was touched (mtime and size of every file)');
  assert.equal(fs.statSync(path.join(root, 'later.txt')).mtimeMs, laterStat.mtimeMs);
  assert.deepEqual(
    status(root).split('\n').filter(Boolean).sort(),
    [...statusBefore.split('\n').filter(Boolean), '?? later.txt'].sort(),
  );
  assert.match(git(root, 'stash', 'list'), /user stash/);
});

test('snapshot records staged, unstaged and untracked content but not ignored files', async () => {
  const root = busyRepo();
  const snap = await (await truthOf(root)).snapshot('x');
  const files = git(root, 'ls-tree', '-r', '--name-only', snap.id).split('\n').filter(Boolean);
  assert.deepEqual(files.sort(), ['.gitignore', 'a.txt', 'b.txt', 'new.txt', 'src/c.ts']);
  assert.equal(git(root, 'show', `${snap.id}:a.txt`), 'staged then edited\n');
  assert.equal(git(root, 'show', `${snap.id}:b.txt`), 'unstaged\n');
  assert.equal(snap.head, git(root, 'rev-parse', 'HEAD').trim());
  assert.equal(git(root, 'rev-parse', `${snap.id}^`).trim(), snap.head, 'the snapshot commit is a child of HEAD');
  assert.match(git(root, 'log', '-1', '--format=%s|%an', snap.id), /^agent-ledger snapshot x\|Agent Ledger/);
  assert.equal(snap.type, 'git');
  assert.ok(!Number.isNaN(Date.parse(snap.takenAt)));
});

test('no hook of the user runs, and only the kept private index is left in the git dir', async () => {
  const root = makeRepo();
  // Outside the repository (so it is no change of it), in a folder removed after the test.
  const marker = path.join(tempDir('agent-ledger-hooks-'), 'hook-ran');
  for (const hook of ['post-index-change', 'reference-transaction', 'pre-commit', 'post-commit']) {
    const file = path.join(root, '.git', 'hooks', hook);
    fs.writeFileSync(file, `#!/bin/sh\necho ${hook} >> "${marker}"\n`, { mode: 0o755 });
  }
  write(root, { 'x.txt': 'x\n' });
  const truth = await truthOf(root);
  const snap = await truth.snapshot('hooks');
  await truth.keep(snap, 'task-1');
  await truth.changesSince(snap);
  assert.equal(fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : 'no hook ran', 'no hook ran');
  const ours = fs.readdirSync(path.join(root, '.git')).filter((e) => e.startsWith('agent-ledger'));
  assert.deepEqual(
    ours.filter((e) => !keptPrivateIndex.test(e)),
    [],
    'no per-snapshot index or lock is left',
  );
  assert.equal(ours.length, 1, 'one kept private index');
  // The hooks are real: a git command that runs them does write the marker.
  git(root, 'update-ref', 'refs/heads/other', 'HEAD');
  assert.equal(fs.existsSync(marker), true);
});

test('keep points refs/agent-ledger/snapshots/<name> at the snapshot and rejects bad names', async () => {
  const root = makeRepo();
  const truth = await truthOf(root);
  const snap = await truth.snapshot('k');
  await truth.keep(snap, 'task-12');
  assert.equal(git(root, 'rev-parse', 'refs/agent-ledger/snapshots/task-12').trim(), snap.id);
  assert.equal(git(root, 'for-each-ref', 'refs/heads').trim().split('\n').length, 1, 'no branch was created');
  for (const bad of ['../x', 'a/b', 'x y', '', '.hidden', 'x.lock', 'a..b']) {
    await assert.rejects(truth.keep(snap, bad), (ex) => GitError.is(ex, 'invalidName'), bad);
  }
  git(root, 'gc', '--prune=now', '--quiet');
  assert.equal(git(root, 'cat-file', '-t', snap.id).trim(), 'commit', 'a kept snapshot survives gc');
});

test('an empty repository (unborn HEAD) snapshots with head null, also with no files at all', async () => {
  const root = makeRepo({});
  const truth = await truthOf(root);
  const empty = await truth.snapshot('empty');
  assert.equal(empty.head, null);
  assert.equal(git(root, 'ls-tree', '-r', empty.id), '');
  write(root, { 'first.txt': '1\n' });
  const changes = await truth.changesSince(empty);
  assert.deepEqual(changes.files.added, ['first.txt']);
  assert.deepEqual(changes.commits, []);
  assert.equal(fs.existsSync(path.join(root, '.git', 'index')), false, 'no index was created');
});

test('a workspace that is a subfolder sees only its folder, with paths relative to it (more in subfolderWorkspace.test.ts)', async () => {
  const root = makeRepo({ 'top.txt': 't\n', 'pkg/app/main.ts': 'm\n' });
  const truth = await truthOf(path.join(root, 'pkg', 'app'));
  assert.equal(truth.root, root);
  assert.equal(truth.workspacePath, 'pkg/app');
  const start = await truth.snapshot('sub');
  write(root, { 'top.txt': 'changed\n', 'pkg/app/main.ts': 'changed\n', 'pkg/other.ts': 'new\n' });
  const changes = await truth.changesSince(start);
  assert.deepEqual(changes.files, { added: [], modified: ['main.ts'], deleted: [], renamed: [] });
});

test('GitRepo.open reports a folder outside Git as notARepository and finds git and common dirs', async () => {
  const root = makeRepo();
  await assert.rejects(GitRepo.open(path.dirname(root)), (ex) => GitError.is(ex, 'notARepository'));
  await assert.rejects(GitRepo.open(path.join(root, 'missing')), (ex) => GitError.is(ex, 'notARepository'));
  const repo = await GitRepo.open(root);
  assert.equal(repo.gitDir, path.join(root, '.git'));
  assert.equal(repo.commonDir, path.join(root, '.git'));
  assert.equal(repo.prefix, '');
  write(root, { 'second.txt': '2\n' });
  commit(root, 'second');
  const linked = `${root}-wt`;
  git(root, 'worktree', 'add', '-q', linked);
  try {
    const wt = await GitRepo.open(linked);
    assert.equal(wt.commonDir, path.join(root, '.git'));
    assert.equal(wt.gitDir, path.join(root, '.git', 'worktrees', path.basename(linked)));
    const snap = await new GitWorkspaceTruth(wt).snapshot('in a worktree');
    assert.equal(snap.head, git(root, 'rev-parse', 'HEAD').trim());
  } finally {
    fs.rmSync(linked, { recursive: true, force: true });
  }
});
