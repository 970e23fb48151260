import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { git, tempRepo, writeFiles } from '../helpers/tmp';

interface Completed {
  files_changed: { added: string[]; modified: string[]; deleted: string[]; renamed: { from: string; to: string }[] };
  verification: { scope_match: boolean; unexpected_files: string[]; warnings: string[] };
  commits: { sha: string; subject: string }[];
  counts: { decisions: number; issues: number; milestones: number };
  duration_seconds: number;
  status: string;
}

/**
 * What complete_task attributes to a task, against a real repository: exactly what changed
 * between the task's start snapshot and completion.
 */
describe('complete_task attributes exactly what the task changed', () => {
  let repo: string;
  let c: LedgerClient;
  let workflowId: string;

  before(async () => {
    repo = tempRepo({
      'src/auth/login.ts': 'login v1\n',
      'src/api/routes.ts': 'routes v1\n',
      'docs/guide.md': 'guide\n',
      'old/legacy.ts': 'legacy code that will move\n'.repeat(20),
      '.gitignore': 'build/\n*.log\n',
    });
    c = await connect(repo);
    workflowId = (await c.call<{ workflow_id: string }>('start_workflow', { name: 'attribution' })).workflow_id;
  });
  after(() => c.close());

  async function run(areas: string[] | undefined, work: () => void): Promise<Completed> {
    const { task_id } = await c.call<{ task_id: string }>('start_task', {
      workflow_id: workflowId,
      name: 'task',
      goal: 'goal',
      ...(areas ? { areas } : {}),
    });
    work();
    return c.call<Completed>('complete_task', { task_id, status: 'success', outcome: { summary: 'done' } });
  }

  test('uncommitted modification, new untracked file and deletion', async () => {
    const r = await run(['auth'], () => {
      writeFiles(repo, { 'src/auth/login.ts': 'login v2\n', 'src/auth/new file ü.ts': 'new\n' });
      fs.rmSync(path.join(repo, 'docs/guide.md'));
    });
    assert.deepEqual(r.files_changed, {
      added: ['src/auth/new file ü.ts'],
      modified: ['src/auth/login.ts'],
      deleted: ['docs/guide.md'],
      renamed: [],
    });
    assert.deepEqual(r.verification.unexpected_files, ['docs/guide.md']);
    assert.equal(r.verification.scope_match, false);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'baseline for next test');
  });

  test('commits made during the task plus uncommitted edits (seed 000’s union example)', async () => {
    const r = await run(['src'], () => {
      writeFiles(repo, { 'src/auth/login.ts': 'login v3\n', 'src/api/routes.ts': 'routes v2\n' });
      git(repo, 'add', '-A');
      git(repo, 'commit', '-qm', 'feat: auth and routes');
      writeFiles(repo, { 'src/config.ts': 'config\n' });
    });
    assert.deepEqual(r.files_changed.modified, ['src/api/routes.ts', 'src/auth/login.ts']);
    assert.deepEqual(r.files_changed.added, ['src/config.ts']);
    assert.equal(r.commits.length, 1);
    assert.equal(r.commits[0].subject, 'feat: auth and routes');
    assert.equal(r.verification.scope_match, true);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'baseline');
  });

  test('a file already dirty before start_task is not attributed; one edited further is', async () => {
    writeFiles(repo, {
      'src/api/routes.ts': 'dirty before the task\n',
      'src/auth/login.ts': 'dirty too\n',
      'scratch.txt': 'untracked before\n',
    });
    const r = await run(undefined, () => {
      writeFiles(repo, { 'src/auth/login.ts': 'dirty, then changed by the task\n' });
    });
    assert.deepEqual(r.files_changed, { added: [], modified: ['src/auth/login.ts'], deleted: [], renamed: [] });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'baseline');
  });

  test('ignored files are never attributed; a change reverted is not listed', async () => {
    const r = await run(undefined, () => {
      writeFiles(repo, { 'build/out.js': 'generated\n', 'debug.log': 'log\n', 'src/auth/login.ts': 'temporary\n' });
      writeFiles(repo, { 'src/auth/login.ts': 'dirty, then changed by the task\n' });
    });
    assert.deepEqual(r.files_changed, { added: [], modified: [], deleted: [], renamed: [] });
    assert.equal(r.verification.scope_match, true);
  });

  test('a moved file is reported as renamed', async () => {
    const r = await run(['src/legacy'], () => {
      fs.mkdirSync(path.join(repo, 'src/legacy'), { recursive: true });
      fs.renameSync(path.join(repo, 'old/legacy.ts'), path.join(repo, 'src/legacy/legacy.ts'));
    });
    assert.deepEqual(r.files_changed.renamed, [{ from: 'old/legacy.ts', to: 'src/legacy/legacy.ts' }]);
    assert.deepEqual(r.files_changed.added, []);
    assert.deepEqual(r.files_changed.deleted, []);
    assert.equal(r.verification.scope_match, true);
  });

  test('a sub-task sees only its own changes; the parent sees both', async () => {
    const parent = await c.call<{ task_id: string }>('start_task', {
      workflow_id: workflowId,
      name: 'parent',
      goal: 'g',
    });
    writeFiles(repo, { 'parent.txt': 'p\n' });
    const child = await c.call<{ task_id: string; parent_task_id: string }>('start_task', {
      workflow_id: workflowId,
      parent_task_id: parent.task_id,
      name: 'child',
      goal: 'g',
    });
    assert.equal(child.parent_task_id, parent.task_id);
    writeFiles(repo, { 'child.txt': 'c\n' });
    const childDone = await c.call<Completed>('complete_task', {
      task_id: child.task_id,
      status: 'partial_success',
      outcome: { summary: 's' },
    });
    assert.deepEqual(childDone.files_changed.added, ['child.txt']);
    const parentDone = await c.call<Completed>('complete_task', {
      task_id: parent.task_id,
      status: 'success',
      outcome: { summary: 's' },
    });
    assert.deepEqual(parentDone.files_changed.added, ['child.txt', 'parent.txt']);
    const tree = JSON.parse(
      (
        (await c.client.readResource({ uri: `task://${parent.task_id.replace('task-', '')}` })).contents[0] as {
          text: string;
        }
      ).text,
    );
    assert.deepEqual(
      tree.subTasks.map((s: { key: string; status: string; result: string }) => [s.key, s.status, s.result]),
      [[child.task_id, 'done', 'partial_success']],
    );
  });

  test('a sub-task still running is flagged when its parent completes', async () => {
    const parent = await c.call<{ task_id: string }>('start_task', { workflow_id: workflowId, name: 'p2', goal: 'g' });
    const child = await c.call<{ task_id: string }>('start_task', {
      workflow_id: workflowId,
      parent_task_id: parent.task_id,
      name: 'c2',
      goal: 'g',
    });
    const done = await c.call<Completed>('complete_task', {
      task_id: parent.task_id,
      status: 'success',
      outcome: { summary: 's' },
    });
    assert.ok(
      done.verification.warnings.some((w) => w.includes(child.task_id) && w.includes('still running')),
      JSON.stringify(done.verification),
    );
  });
});

describe('outside Git: the MD5 checksum manifest', () => {
  test('attributes added, modified, deleted and renamed files and honours .gitignore', async () => {
    const dir = tempRepo();
    fs.rmSync(path.join(dir, '.git'), { recursive: true, force: true });
    writeFiles(dir, {
      'keep.txt': 'same\n',
      'edit.txt': 'v1\n',
      'gone.txt': 'bye\n',
      'move.txt': 'moving content\n',
      '.gitignore': 'ignored/\n',
      'node_modules/x/index.js': '1\n',
    });
    const c = await connect(dir);
    try {
      const { workflow_id } = await c.call<{ workflow_id: string }>('start_workflow', { name: 'plain folder' });
      const started = await c.call<{ task_id: string; snapshot_type: string }>('start_task', {
        workflow_id,
        name: 't',
        goal: 'g',
        areas: ['edit.txt'],
      });
      assert.equal(started.snapshot_type, 'checksum');
      writeFiles(dir, {
        'edit.txt': 'v2\n',
        'new.txt': 'n\n',
        'ignored/a.txt': 'x\n',
        'node_modules/x/index.js': '2\n',
      });
      fs.rmSync(path.join(dir, 'gone.txt'));
      fs.renameSync(path.join(dir, 'move.txt'), path.join(dir, 'moved.txt'));
      const r = await c.call<Completed>('complete_task', {
        task_id: started.task_id,
        status: 'success',
        outcome: { summary: 's' },
      });
      assert.deepEqual(r.files_changed, {
        added: ['new.txt'],
        modified: ['edit.txt'],
        deleted: ['gone.txt'],
        renamed: [{ from: 'move.txt', to: 'moved.txt' }],
      });
      assert.deepEqual(r.verification.unexpected_files, ['gone.txt', 'moved.txt', 'new.txt']);
      assert.deepEqual(r.commits, []);
    } finally {
      await c.close();
    }
  });
});
