// A new task worktree gets what it needs to build and test that Git does not carry: the ignored
// files .worktreeinclude names (copied) and the folders workspace.yaml links, on a real repository.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { git, makeRepo, write } from './gitFixture';
import { GitWorktrees } from '../../../src/git/worktrees';

const everything = { read: ['**/*'], exclude: [] };

function repoWithIgnoredFiles(): string {
  const repo = makeRepo({
    '.gitignore': '.env\nnode_modules/\nconfig/secrets.json\nbuild/\n.agent-ledger/\n',
    '.worktreeinclude': '# what a worktree needs\n.env\nconfig/secrets.json\n',
    'config/app.json': '{}\n',
    'README.md': '# r\n',
  });
  write(repo, {
    '.env': 'TOKEN=dev\n',
    'config/secrets.json': '{"k":1}\n',
    'node_modules/pkg/index.js': 'module.exports = 1;\n',
    'build/out.js': 'built\n',
    'notes.txt': 'untracked, not ignored\n',
  });
  return repo;
}

test('ignored files that .worktreeinclude names are copied into a new worktree; nothing else is', async () => {
  const repo = repoWithIgnoredFiles();
  const root = path.join(repo, '.agent-ledger', 'worktrees');
  const w = await new GitWorktrees(repo, root).prepare(path.join(root, 'task-1'), 'task-1-s1', everything, {
    keepScope: false,
  });
  assert.deepEqual(w.brought, { copied: ['.env', 'config/secrets.json'], linked: [] });
  assert.equal(fs.readFileSync(path.join(w.path, '.env'), 'utf8'), 'TOKEN=dev\n');
  assert.equal(fs.readFileSync(path.join(w.path, 'config/secrets.json'), 'utf8'), '{"k":1}\n');
  for (const absent of ['node_modules', 'build', 'notes.txt'])
    assert.ok(!fs.existsSync(path.join(w.path, absent)), `${absent} not copied`);
  assert.equal(git(w.path, 'status', '--porcelain'), '', 'the copies are ignored there too: no change of the task');
});

test('link: folders are linked, never counted as a change; an existing worktree is left as it is', async () => {
  const repo = repoWithIgnoredFiles();
  const root = path.join(repo, '.agent-ledger', 'worktrees');
  const worktrees = new GitWorktrees(repo, root);
  const w = await worktrees.prepare(path.join(root, 'task-2'), 'task-2-s1', everything, {
    keepScope: false,
    link: ['node_modules'],
  });
  assert.deepEqual(w.brought?.linked, ['node_modules']);
  assert.equal(fs.readlinkSync(path.join(w.path, 'node_modules')), path.join(repo, 'node_modules'));
  assert.equal(fs.readFileSync(path.join(w.path, 'node_modules/pkg/index.js'), 'utf8'), 'module.exports = 1;\n');
  // `node_modules/` in .gitignore does not match a link (a file to Git): the exclude line does.
  assert.equal(git(w.path, 'status', '--porcelain'), '');
  fs.writeFileSync(path.join(w.path, '.env'), 'TOKEN=changed in the worktree\n');
  const again = await worktrees.prepare(path.join(root, 'task-2'), 'task-2-s2', everything, {
    keepScope: false,
    link: ['node_modules'],
  });
  assert.equal(again.created, false);
  assert.equal(again.brought, undefined);
  assert.equal(fs.readFileSync(path.join(w.path, '.env'), 'utf8'), 'TOKEN=changed in the worktree\n');
});

test('without .worktreeinclude nothing is copied', async () => {
  const repo = repoWithIgnoredFiles();
  fs.rmSync(path.join(repo, '.worktreeinclude'));
  git(repo, 'commit', '-qam', 'no include file');
  const root = path.join(repo, '.agent-ledger', 'worktrees');
  const w = await new GitWorktrees(repo, root).prepare(path.join(root, 'task-3'), 'task-3-s1', everything, {
    keepScope: false,
  });
  assert.deepEqual(w.brought, { copied: [], linked: [] });
  assert.ok(!fs.existsSync(path.join(w.path, '.env')));
});
