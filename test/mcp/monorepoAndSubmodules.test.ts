/**
 * What a task changed, as an agent sees it through the MCP server, in a package of a monorepo
 * (`--workspace repo/packages/app`) and in a repository with a submodule.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { git, tempRepo, writeFiles } from '../helpers/tmp';

interface Completed {
  files_changed: { added: string[]; modified: string[]; deleted: string[]; renamed: { from: string; to: string }[] };
  commits: { subject: string }[];
  repositoryRoot: string | null;
  workspacePath: string;
}

async function startTask(c: LedgerClient, name: string): Promise<string> {
  const { workflow_id } = await c.call<{ workflow_id: string }>('start_workflow', { name: 'work' });
  const { task_id } = await c.call<{ task_id: string }>('start_task', { workflow_id, name, goal: name });
  return task_id;
}

const complete = (c: LedgerClient, task_id: string | number) =>
  c.call<Completed>('complete_task', { task_id, status: 'success', outcome: { summary: 'done' } });

describe('a workspace that is a package of a monorepo', () => {
  test('complete_task and task_get: changes inside the package, relative to it, with the repository root stated', async () => {
    const repo = tempRepo({
      'package.json': '{}\n',
      'packages/app/main.ts': 'm\n',
      'packages/app/old.ts': 'moves out\n',
      'packages/lib/lib.ts': 'l\n',
      'packages/lib/in.ts': 'moves in\n',
    });
    const app = path.join(repo, 'packages', 'app');
    const c = await connect(app);
    try {
      const taskId = await startTask(c, 'edit the app');
      writeFiles(repo, { 'packages/app/main.ts': 'm2\n', 'packages/lib/lib.ts': 'l2\n', 'package.json': '{"a":1}\n' });
      fs.renameSync(path.join(repo, 'packages/app/old.ts'), path.join(repo, 'packages/lib/old.ts'));
      fs.renameSync(path.join(repo, 'packages/lib/in.ts'), path.join(repo, 'packages/app/in.ts'));
      git(repo, 'add', '-A');
      git(repo, 'commit', '-q', '-m', 'outside only: lib and root', '--', 'packages/lib/lib.ts', 'package.json');
      const done = await complete(c, taskId);
      assert.deepEqual(done.files_changed, {
        added: ['in.ts'],
        modified: ['main.ts'],
        deleted: ['old.ts'],
        renamed: [],
      });
      assert.deepEqual(done.commits, [], 'a commit that touched only other packages is not this workspace’s');
      assert.equal(done.repositoryRoot, repo);
      assert.equal(done.workspacePath, 'packages/app');
      const task = await c.call<{
        filesChanged: Completed['files_changed'];
        repositoryRoot: string;
        workspacePath: string;
      }>('task_get', { id: taskId });
      assert.deepEqual(task.filesChanged, done.files_changed);
      assert.equal(task.repositoryRoot, repo);
      assert.equal(task.workspacePath, 'packages/app');
    } finally {
      await c.close();
    }
  });

  test('a worker in a package works in the same folder of its worktree and is measured there', async () => {
    const repo = tempRepo({ 'packages/app/main.ts': 'm\n', 'packages/lib/lib.ts': 'l\n' });
    const c = await connect(path.join(repo, 'packages', 'app'));
    try {
      const task = await c.call<{ id: number }>('task_create', { title: 'work' });
      const w = await c.call<{ cwd: string; worktree: string }>('worker_command', { taskId: task.id });
      assert.equal(w.worktree, `.agent-ledger/worktrees/task-${task.id}`);
      const worktree = path.join(repo, 'packages', 'app', w.worktree);
      assert.equal(fs.realpathSync(w.cwd), fs.realpathSync(path.join(worktree, 'packages', 'app')));
      writeFiles(w.cwd, { 'main.ts': 'changed by the worker\n' });
      writeFiles(worktree, { 'packages/lib/lib.ts': 'outside the package\n' });
      const done = await complete(c, task.id);
      assert.deepEqual(done.files_changed.modified, ['main.ts']);
      assert.equal(fs.realpathSync(done.repositoryRoot!), fs.realpathSync(worktree));
      assert.equal(done.workspacePath, 'packages/app');
    } finally {
      await c.close();
    }
  });
});

describe('a repository with a submodule', () => {
  test('uncommitted edits inside the submodule are what the task changed, file by file', async () => {
    const lib = tempRepo({ 'x.txt': 'x\n', 'y.txt': 'y\n' });
    const repo = tempRepo({ 'README.md': '# r\n' });
    git(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'vendor/lib');
    git(repo, 'commit', '-q', '-m', 'add the submodule');
    const c = await connect(repo);
    try {
      const taskId = await startTask(c, 'patch the vendored lib');
      writeFiles(path.join(repo, 'vendor', 'lib'), { 'x.txt': 'patched\n', 'z.txt': 'new\n' });
      const done = await complete(c, taskId);
      assert.deepEqual(done.files_changed, {
        added: ['vendor/lib/z.txt'],
        modified: ['vendor/lib/x.txt'],
        deleted: [],
        renamed: [],
      });
      assert.match(
        git(path.join(repo, 'vendor', 'lib'), 'status', '--porcelain'),
        /^ M x\.txt$/m,
        'the submodule’s own state is untouched',
      );
    } finally {
      await c.close();
    }
  });
});
