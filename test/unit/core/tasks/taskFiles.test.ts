import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createServices } from '../../../../src/app/services';
import type { Services } from '../../../../src/app/services';
import { isLedgerOwnPath, withoutLedgerFiles, alsoChangedBy } from '../../../../src/core/tasks/taskFiles';
import { tempRepo, writeFiles } from '../../../helpers/tmp';

/** start_task in a fresh workflow of its own. */
async function start(services: Services, name: string, areas: string[], workflow_id?: string): Promise<string> {
  workflow_id ??= (await services.workflows.start({ name: `${name} (workflow)`, plan: [{ step: name, goal: name }] }))
    .workflow_id;
  return (await services.tracking.startTask({ workflow_id, name, goal: name, areas })).task_id;
}

const paths = (f: { added: string[]; modified: string[]; deleted: string[] }) =>
  [...f.added, ...f.modified, ...f.deleted].sort();

test('the ledger own folders are told from the work, on path segments', () => {
  assert.equal(isLedgerOwnPath('.agent-ledger/memory/tooling/x.md'), true);
  assert.equal(isLedgerOwnPath('.agent-ledger'), true);
  assert.equal(isLedgerOwnPath('.specs/20260101-x/design.md'), true);
  assert.equal(isLedgerOwnPath('.agent-ledgerx/a.md'), false);
  assert.equal(isLedgerOwnPath('docs/.specs/a.md'), false);
  assert.equal(isLedgerOwnPath('src/a.ts'), false);
  const files = {
    added: ['.agent-ledger/memory/a/b.md', 'src/new.ts'],
    modified: ['.specs/x/state.json', 'README.md'],
    deleted: [],
    renamed: [{ from: 'a.md', to: '.agent-ledger/agents/a.yaml' }],
  };
  assert.deepEqual(withoutLedgerFiles(files), {
    added: ['src/new.ts'],
    modified: ['README.md'],
    deleted: [],
    renamed: [],
  });
  assert.deepEqual(withoutLedgerFiles(files, new Set(['.agent-ledger/memory/a/b.md'])).added, [
    '.agent-ledger/memory/a/b.md',
    'src/new.ts',
  ]);
});

test('runs that never met in time, or ran in another worktree, share nothing', () => {
  const files = { added: [], modified: ['README.md'], deleted: [], renamed: [] };
  const task = {
    id: 1,
    worktree: null,
    machineId: 'm',
    startedAt: '2026-01-01T10:00:00Z',
    completedAt: '2026-01-01T11:00:00Z',
    files,
  };
  const others = [
    { ...task, id: 2, startedAt: '2026-01-01T11:30:00Z', completedAt: '2026-01-01T12:00:00Z' },
    { ...task, id: 3, worktree: '.agent-ledger/worktrees/task-3' },
    { ...task, id: 4, machineId: 'other' },
    { ...task, id: 5, startedAt: '2026-01-01T10:30:00Z', completedAt: null },
  ];
  assert.deepEqual(alsoChangedBy(task, files, others), [{ path: 'README.md', tasks: ['task-5'] }]);
});

test("another process's memory entry, agent file and pipeline document are none of a running task's files", async () => {
  const repo = tempRepo({ 'src/a.ts': 'a1\n', 'README.md': '# r\n' });
  const mine = await createServices({ workspace: repo });
  const other = await createServices({ workspace: repo });
  try {
    const task_id = await start(mine, 'Edit a', ['src']);
    writeFiles(repo, { 'src/a.ts': 'a2\n' });
    // Meanwhile, another process of the ledger writes into the same tree.
    await other.memory.add({ id: 'test-runner', category: 'tooling', title: 'Tests run with node:test' });
    writeFiles(repo, { '.agent-ledger/agents/docs-writer.yaml': 'name: docs-writer\ndescription: writes docs\n' });
    const init = other.pipelines.init({ arguments: 'Fix the typo in the README', current_branch: 'main' });
    await other.pipelines.initWithContext({
      workspace: String(init.workspace),
      flags: init.flags as never,
      task_text: String(init.core_text),
      user_confirmation: { effort: 'S', use_current_branch: true },
    });
    assert.ok(fs.readdirSync(path.join(repo, '.specs')).length > 0, 'the pipeline wrote its folder');

    const live = await mine.tracking.liveFiles(task_id);
    assert.deepEqual(paths(live!.files), ['src/a.ts']);
    assert.deepEqual((await mine.rewind.plan(task_id)).paths, ['src/a.ts']);

    const done = await mine.tracking.completeTask({ task_id, status: 'success', outcome: { summary: 'edited' } });
    assert.deepEqual(paths(done.files_changed), ['src/a.ts']);
    assert.equal(done.verification.scope_match, true, JSON.stringify(done.verification));
    const got = await mine.tasks.answer(task_id);
    assert.deepEqual(paths(got.filesChanged!), ['src/a.ts']);
    assert.deepEqual(got.alsoChangedBy, []);
  } finally {
    await mine.dispose();
    await other.dispose();
  }
});

test('a memory entry the task adds naming itself is its work', async () => {
  const repo = tempRepo({ 'src/a.ts': 'a1\n' });
  const services = await createServices({ workspace: repo });
  try {
    const task_id = await start(services, 'Decide', ['src']);
    await services.memory.add({ id: 'db-choice', category: 'architecture', title: 'SQLite', task_id });
    await services.memory.add({ id: 'unrelated', category: 'tooling', title: 'Not this task' });
    const done = await services.tracking.completeTask({ task_id, status: 'success', outcome: { summary: 'ok' } });
    assert.deepEqual(paths(done.files_changed), ['.agent-ledger/memory/architecture/db-choice.md']);
    await assert.rejects(
      services.memory.add({ id: 'x', category: 'tooling', title: 'x', task_id: 'task-99' }),
      (err: Error & { code?: string }) => /task-99/.test(err.message),
    );
    assert.equal(
      fs.existsSync(path.join(repo, '.agent-ledger/memory/tooling/x.md')),
      false,
      'a refusal writes nothing',
    );
  } finally {
    await services.dispose();
  }
});

test('two tasks in one working tree each editing a file: each file is marked also changed by the other', async () => {
  const repo = tempRepo({ 'src/a.ts': 'a1\n', 'docs/b.md': 'b1\n' });
  const services = await createServices({ workspace: repo });
  try {
    const one = await start(services, 'One', ['src']);
    const two = await start(services, 'Two', ['docs']);
    writeFiles(repo, { 'src/a.ts': 'a2\n' });
    writeFiles(repo, { 'docs/b.md': 'b2\n' });

    // While both run, the live measure of each names the other.
    const live = await services.tracking.liveFiles(one);
    assert.deepEqual(live!.shared, [
      { path: 'docs/b.md', tasks: [two] },
      { path: 'src/a.ts', tasks: [two] },
    ]);

    await services.tracking.completeTask({ task_id: one, status: 'success', outcome: { summary: 'a' } });
    await services.tracking.completeTask({ task_id: two, status: 'success', outcome: { summary: 'b' } });
    const first = await services.tasks.answer(one);
    const second = await services.tasks.answer(two);
    assert.deepEqual(first.alsoChangedBy, [
      { path: 'docs/b.md', tasks: [two] },
      { path: 'src/a.ts', tasks: [two] },
    ]);
    assert.deepEqual(second.alsoChangedBy, [
      { path: 'docs/b.md', tasks: [one] },
      { path: 'src/a.ts', tasks: [one] },
    ]);

    // A task started after both ended shares nothing with them.
    const three = await start(services, 'Three', ['src']);
    writeFiles(repo, { 'src/a.ts': 'a3\n' });
    await services.tracking.completeTask({ task_id: three, status: 'success', outcome: { summary: 'a' } });
    assert.deepEqual((await services.tasks.answer(three)).alsoChangedBy, []);
  } finally {
    await services.dispose();
  }
});

test('the pull-request report marks a file another task in the same tree changed too', async () => {
  const repo = tempRepo({ 'src/a.ts': 'a1\n', 'README.md': '# r\n' });
  const services = await createServices({ workspace: repo });
  try {
    const { workflow_id } = await services.workflows.start({ name: 'Login', plan: [{ step: 'a', goal: 'a' }] });
    const mine = (await services.tracking.startTask({ workflow_id, name: 'Edit a', goal: 'a', areas: ['src'] }))
      .task_id;
    // A task of no workflow edits the README in the same tree meanwhile.
    const other = await start(services, 'Docs', ['README.md']);
    writeFiles(repo, { 'src/a.ts': 'a2\n', 'README.md': '# r2\n' });
    await services.tracking.completeTask({ task_id: other, status: 'success', outcome: { summary: 'readme' } });
    await services.tracking.completeTask({ task_id: mine, status: 'success', outcome: { summary: 'a' } });
    const report = await services.workflowReport(workflow_id, new Date());
    assert.match(report, new RegExp(`\`README.md\` \\(also changed by ${other}\\)`));
  } finally {
    await services.dispose();
  }
});
