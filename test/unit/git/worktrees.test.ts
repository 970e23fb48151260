import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { git, makeRepo, write } from './gitFixture';
import { GitWorktrees } from '../../../src/git/worktrees';
import { parseWorktreeList, sparsePatterns } from '../../../src/git/worktreeParts';
import { GitError } from '../../../src/git/errors';

function setup(
  files: Record<string, string> = {
    'src/a.ts': 'a\n',
    'src/.env': 'SECRET=1\n',
    'docs/guide.md': 'guide\n',
    'README.md': '# r\n',
  },
) {
  const repo = makeRepo(files);
  const root = path.join(repo, '.agent-ledger', 'worktrees');
  return { repo, root, worktrees: new GitWorktrees(repo, root), at: (id: number) => path.join(root, `task-${id}`) };
}

const everything = { read: ['**/*'], exclude: [] };

/** Files of a folder, relative, without the worktree's `.git` file. */
function files(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name !== '.git') out.push(path.relative(dir, p).split(path.sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

describe('git worktrees per task', () => {
  test('a new worktree is on branch task-<id>-s<session> at HEAD, with every file checked out', async () => {
    const { repo, worktrees, at } = setup();
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    const w = await worktrees.prepare(at(5), 'task-5-s12', everything, { keepScope: false });
    assert.equal(w.created, true);
    assert.equal(w.branch, 'task-5-s12');
    assert.equal(w.base, head);
    assert.equal(w.sparse, false);
    assert.equal(git(w.path, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'task-5-s12');
    assert.deepEqual(files(w.path), ['README.md', 'docs/guide.md', 'src/.env', 'src/a.ts']);
    assert.equal(git(repo, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'main', 'the workspace stays on its branch');
  });

  test('preparing again reuses the worktree, its branch and its work', async () => {
    const { worktrees, at } = setup();
    const first = await worktrees.prepare(at(1), 'task-1-s1', everything, { keepScope: false });
    write(first.path, { 'src/wip.ts': 'work in progress\n' });
    const again = await worktrees.prepare(at(1), 'task-1-s2', everything, { keepScope: false });
    assert.equal(again.created, false);
    assert.equal(again.branch, 'task-1-s1', 'the branch of the session that created it');
    assert.ok(fs.existsSync(path.join(again.path, 'src/wip.ts')));
  });

  test('read and exclude scopes become a sparse checkout', async () => {
    const { worktrees, at } = setup();
    const onlySrc = await worktrees.prepare(
      at(2),
      'task-2-s1',
      { read: ['src/**'], exclude: ['**/*.env'] },
      { keepScope: false },
    );
    assert.equal(onlySrc.sparse, true);
    assert.deepEqual(files(onlySrc.path), ['src/a.ts']);
    const noSecrets = await worktrees.prepare(
      at(3),
      'task-3-s1',
      { read: ['**/*'], exclude: ['**/*.env', 'docs'] },
      { keepScope: false },
    );
    assert.deepEqual(files(noSecrets.path), ['README.md', 'src/a.ts']);
    assert.equal(git(noSecrets.path, 'status', '--porcelain'), '', 'files left out by the scope are not deletions');
  });

  test('a reused worktree takes a different scope, unless told to keep its own', async () => {
    const { worktrees, at } = setup();
    await worktrees.prepare(at(4), 'task-4-s1', { read: ['**/*'], exclude: ['docs'] }, { keepScope: false });
    const kept = await worktrees.prepare(at(4), 'task-4-s2', everything, { keepScope: true });
    assert.equal(kept.sparse, true);
    assert.ok(!fs.existsSync(path.join(kept.path, 'docs/guide.md')));
    const widened = await worktrees.prepare(at(4), 'task-4-s3', everything, { keepScope: false });
    assert.equal(widened.sparse, false);
    assert.ok(fs.existsSync(path.join(widened.path, 'docs/guide.md')));
    const createdAnyway = await worktrees.prepare(
      at(11),
      'task-11-s1',
      { read: ['**/*'], exclude: ['docs'] },
      { keepScope: true },
    );
    assert.equal(createdAnyway.sparse, true, 'keepScope only concerns an existing worktree; a new one gets the scope');
  });

  test('two processes preparing one worktree at once: one creates it, the other reuses it', async () => {
    const { repo, root, at } = setup();
    const [a, b] = await Promise.all([
      new GitWorktrees(repo, root).prepare(at(6), 'task-6-s1', everything, { keepScope: false }),
      new GitWorktrees(repo, root).prepare(at(6), 'task-6-s2', everything, { keepScope: false }),
    ]);
    assert.deepEqual([a.created, b.created].sort(), [false, true]);
    assert.equal(a.branch, b.branch);
    assert.equal(git(repo, 'branch', '--list', 'task-6-*').trim().split('\n').length, 1);
  });

  test('inspect says dirty, merged and size; remove frees the disk and deletes a merged branch', async () => {
    const { repo, worktrees, at } = setup({ 'big.bin': 'x'.repeat(200_000), 'README.md': '# r\n' });
    const w = await worktrees.prepare(at(7), 'task-7-s1', everything, { keepScope: false });
    let state = await worktrees.inspect(w.path, w.branch);
    assert.equal(state.exists, true);
    assert.equal(state.dirty, false);
    assert.equal(state.merged, true, 'no commit of its own yet: nothing to lose');
    assert.ok(state.sizeBytes >= 200_000, `size ${state.sizeBytes}`);
    write(w.path, { 'new.txt': 'new\n' });
    state = await worktrees.inspect(w.path, w.branch);
    assert.equal(state.dirty, true);
    git(w.path, 'add', '-A');
    git(w.path, 'commit', '-qm', 'work');
    state = await worktrees.inspect(w.path, w.branch);
    assert.equal(state.merged, false);
    git(repo, 'merge', '-q', '--ff-only', 'task-7-s1');
    assert.equal((await worktrees.inspect(w.path, w.branch)).merged, true);
    const removal = await worktrees.remove(w.path, { force: false });
    assert.ok(removal.freedBytes >= 200_000);
    assert.equal(removal.branchDeleted, true);
    assert.equal(fs.existsSync(w.path), false);
    assert.equal(git(repo, 'branch', '--list', 'task-7-s1'), '');
    assert.equal((await worktrees.inspect(w.path, 'task-7-s1')).exists, false);
  });

  test('an unmerged branch survives the removal of its worktree; uncommitted work needs force', async () => {
    const { repo, worktrees, at } = setup();
    const w = await worktrees.prepare(at(8), 'task-8-s1', everything, { keepScope: false });
    write(w.path, { 'kept.txt': 'kept\n' });
    git(w.path, 'add', '-A');
    git(w.path, 'commit', '-qm', 'unmerged work');
    write(w.path, { 'dirty.txt': 'dirty\n' });
    await assert.rejects(worktrees.remove(w.path, { force: false }), (err: unknown) => GitError.is(err));
    const removal = await worktrees.remove(w.path, { force: true });
    assert.equal(removal.branchDeleted, false);
    assert.match(git(repo, 'branch', '--list', 'task-8-s1'), /task-8-s1/);
  });

  test('refusals: paths outside the worktrees folder, odd branch names, a repository without commits, a stray folder', async () => {
    const { repo, root, worktrees, at } = setup();
    await assert.rejects(
      worktrees.prepare(path.join(repo, 'src'), 'task-1-s1', everything, { keepScope: false }),
      (err: unknown) => GitError.is(err, 'invalidPath'),
    );
    await assert.rejects(
      worktrees.prepare(path.join(root, '..', '..', 'task-1'), 'task-1-s1', everything, { keepScope: false }),
      (err: unknown) => GitError.is(err, 'invalidPath'),
    );
    await assert.rejects(worktrees.prepare(at(1), 'main; rm -rf /', everything, { keepScope: false }), (err: unknown) =>
      GitError.is(err, 'invalidName'),
    );
    fs.mkdirSync(at(9), { recursive: true });
    fs.writeFileSync(path.join(at(9), 'mine.txt'), 'not a worktree\n');
    await assert.rejects(
      worktrees.prepare(at(9), 'task-9-s1', everything, { keepScope: false }),
      /exists but is not a Git worktree/,
    );
    const empty = makeRepo({});
    const emptyRoot = path.join(empty, '.agent-ledger', 'worktrees');
    await assert.rejects(
      new GitWorktrees(empty, emptyRoot).prepare(path.join(emptyRoot, 'task-1'), 'task-1-s1', everything, {
        keepScope: false,
      }),
      (err: unknown) => GitError.is(err, 'unsupported'),
    );
  });

  test('the truth of a worktree snapshots there; of a removed one it refuses with InvalidStatus', async () => {
    const { worktrees, at } = setup();
    const w = await worktrees.prepare(at(10), 'task-10-s1', everything, { keepScope: false });
    const truth = await worktrees.truth(w.path);
    const before = await truth.snapshot('start');
    write(w.path, { 'src/a.ts': 'changed\n' });
    assert.deepEqual((await truth.changesSince(before)).files.modified, ['src/a.ts']);
    await worktrees.remove(w.path, { force: true });
    await assert.rejects(
      worktrees.truth(w.path),
      (err: unknown) => (err as { code?: string }).code === 'InvalidStatus',
    );
  });
});

describe('worktree parsers', () => {
  test('git worktree list --porcelain -z', () => {
    const out =
      'worktree /r\0HEAD aaa\0branch refs/heads/main\0\0worktree /r/.agent-ledger/worktrees/task-1\0HEAD bbb\0detached\0\0worktree /r/x y\0HEAD ccc\0branch refs/heads/task-2-s3\0locked\0\0';
    assert.deepEqual(parseWorktreeList(out), [
      { path: '/r', head: 'aaa', branch: 'main' },
      { path: '/r/.agent-ledger/worktrees/task-1', head: 'bbb', branch: null },
      { path: '/r/x y', head: 'ccc', branch: 'task-2-s3' },
    ]);
  });

  test('sparse patterns from a scope', () => {
    assert.equal(sparsePatterns({ read: ['**/*'], exclude: [] }), null);
    assert.deepEqual(sparsePatterns({ read: ['**/*'], exclude: ['**/*.env'] }), ['/*', '!/**/*.env']);
    assert.deepEqual(sparsePatterns({ read: ['src/**', 'package.json'], exclude: ['src/secret'] }), [
      '/src/**',
      '/package.json',
      '!/src/secret',
    ]);
    // A subfolder workspace: scopes are relative to it, so they are anchored at its folder.
    assert.deepEqual(sparsePatterns({ read: ['src/**'], exclude: ['**/*.env'] }, 'pkg/app/'), [
      '/pkg/app/src/**',
      '!/pkg/app/**/*.env',
    ]);
    assert.deepEqual(sparsePatterns({ read: ['**/*'], exclude: ['x'] }, 'pkg/a*p/'), ['/*', '!/pkg/a\\*p/x']);
  });
});
