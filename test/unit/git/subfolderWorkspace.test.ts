/**
 * A workspace that is a package of a monorepo (`--workspace repo/packages/app`) sees its folder
 * only: changes, commits, file contents and rewinds, with paths relative to it — while snapshots
 * stay whole-repository commits that touch nothing of the user's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GitRepo } from '../../../src/git/gitRepo';
import { GitWorkspaceTruth } from '../../../src/git/gitWorkspaceTruth';
import { commit, git, makeRepo, read, status, userState, write } from './gitFixture';

function monorepo(): { root: string; app: string } {
  const root = makeRepo({
    'package.json': '{"workspaces":["packages/*"]}\n',
    'packages/app/src/main.ts': 'main\n',
    'packages/app/src/move-out.ts': 'leaves the package\n',
    'packages/app/src/inner.ts': 'renamed inside\n',
    'packages/app/README.md': 'app\n',
    'packages/lib/index.ts': 'lib\n',
    'packages/lib/move-in.ts': 'joins the package\n',
    'packages/application/x.ts': 'a sibling whose name starts like the package\n',
  });
  return { root, app: path.join(root, 'packages', 'app') };
}

async function truthOf(folder: string): Promise<GitWorkspaceTruth> {
  return new GitWorkspaceTruth(await GitRepo.open(folder));
}

test('changes inside the folder only, relative to it; a move across the boundary is an add or a delete', async () => {
  const { root, app } = monorepo();
  const truth = await truthOf(app);
  assert.equal(truth.root, root);
  assert.equal(truth.workspacePath, 'packages/app');
  const start = await truth.snapshot('start');
  write(root, {
    'package.json': '{"workspaces":["packages/*"],"private":true}\n',
    'packages/app/src/main.ts': 'main changed\n',
    'packages/app/src/new.ts': 'new\n',
    'packages/lib/index.ts': 'lib changed\n',
    'packages/application/x.ts': 'changed too\n',
    'untracked-at-top.txt': 'x\n',
  });
  const move = (from: string, to: string) => {
    fs.mkdirSync(path.dirname(path.join(root, to)), { recursive: true });
    fs.renameSync(path.join(root, from), path.join(root, to));
  };
  move('packages/app/src/move-out.ts', 'packages/lib/moved-out.ts');
  move('packages/lib/move-in.ts', 'packages/app/src/moved-in.ts');
  move('packages/app/src/inner.ts', 'packages/app/lib/inner.ts');
  fs.rmSync(path.join(app, 'README.md'));
  const changes = await truth.changesSince(start);
  assert.deepEqual(changes.files, {
    added: ['src/moved-in.ts', 'src/new.ts'],
    modified: ['src/main.ts'],
    deleted: ['README.md', 'src/move-out.ts'],
    renamed: [{ from: 'src/inner.ts', to: 'lib/inner.ts' }],
  });
});

test('commits: only those that touched the folder', async () => {
  const { root, app } = monorepo();
  const truth = await truthOf(app);
  const start = await truth.snapshot('start');
  write(root, { 'packages/lib/index.ts': 'lib 2\n' });
  commit(root, 'lib only');
  write(root, { 'packages/app/src/main.ts': 'main 2\n' });
  commit(root, 'app change');
  write(root, { 'packages/application/x.ts': 'sibling\n' });
  commit(root, 'sibling only');
  const changes = await truth.changesSince(start);
  assert.deepEqual(
    changes.commits.map((c) => c.subject),
    ['app change'],
  );
  assert.deepEqual(changes.files.modified, ['src/main.ts']);
});

test('fileAt and restore take paths relative to the folder and never touch the user’s index, HEAD or other files', async () => {
  const { root, app } = monorepo();
  write(root, { 'packages/lib/index.ts': 'dirty outside, never touched\n' });
  git(root, 'add', 'packages/lib/index.ts');
  const truth = await truthOf(app);
  const start = await truth.snapshot('start');
  assert.equal((await truth.fileAt(start, 'src/main.ts'))?.toString(), 'main\n');
  assert.equal(
    await truth.fileAt(start, 'packages/app/src/main.ts'),
    null,
    'repository-relative paths are not workspace paths',
  );
  write(root, { 'packages/app/src/main.ts': 'edited\n', 'packages/app/src/new.ts': 'new\n' });
  const before = userState(root);
  const changed = await truth.changesSince(start);
  await truth.restore(start, [...changed.files.added, ...changed.files.modified]);
  assert.equal(read(app, 'src/main.ts'), 'main\n');
  assert.equal(fs.existsSync(path.join(app, 'src', 'new.ts')), false);
  const after = userState(root);
  for (const key of ['indexBytes', 'head', 'headSha', 'branches', 'stash', 'staged', 'stage'])
    assert.equal(after[key], before[key], key);
  assert.equal(read(root, 'packages/lib/index.ts'), 'dirty outside, never touched\n');
  assert.match(status(root), /^M {2}packages\/lib\/index\.ts$/m);
});

test('a package whose folder name has glob characters is matched literally', async () => {
  const root = makeRepo({ 'pkgs/a*p/main.ts': 'm\n', 'pkgs/abp/main.ts': 'other\n' });
  const truth = await truthOf(path.join(root, 'pkgs', 'a*p'));
  const start = await truth.snapshot('start');
  write(root, { 'pkgs/a*p/main.ts': 'm2\n', 'pkgs/abp/main.ts': 'other 2\n' });
  commit(root, 'both');
  const changes = await truth.changesSince(start);
  assert.deepEqual(changes.files.modified, ['main.ts']);
  assert.equal(changes.commits.length, 1);
});
