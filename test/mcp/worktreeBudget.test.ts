// Worktrees of landed or abandoned tasks go when the worktrees use more than the budget, least
// recently used first; those still being worked on, waiting to land or holding uncommitted work
// stay. On a real repository and store, through the CLI a person (or the runner's schedule) uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { connect } from '../helpers/mcpClient';
import { cli, cliJson } from '../helpers/cli';
import { git, tempRepo, writeFiles } from '../helpers/tmp';
import type { WorkerCommandResult } from '../../src/core/workers/workerContracts';

interface BudgetResult {
  removed: { taskId: number; reason: string; freedBytes: number }[];
  skipped: { taskId: number; reason: string }[];
  usedBytes: number;
}

test('over the budget: landed and abandoned worktrees go, oldest first; open, unlanded or dirty ones stay', async () => {
  const repo = tempRepo({ 'README.md': '# r\n', 'src/a.ts': 'a\n' });
  const c = await connect(repo);
  try {
    const worktree = async (title: string) => {
      const id = (await c.call<{ id: number }>('task_create', { title })).id;
      const w = await c.call<WorkerCommandResult>('worker_command', { taskId: id });
      writeFiles(w.cwd, { [`src/${id}.ts`]: 'x'.repeat(20_000) });
      git(w.cwd, 'add', '-A');
      git(w.cwd, 'commit', '-qm', title);
      // Its agent's session ended, as a run's does when the run ends.
      await c.call('session_end', { sessionId: w.sessionId, exitCode: 0 });
      return { id, w };
    };
    const done = async (id: number) =>
      c.call('complete_task', { task_id: `task-${id}`, status: 'success', outcome: { summary: 'ok' } });
    const landed = await worktree('landed');
    await done(landed.id);
    git(repo, 'merge', '-q', '--no-edit', landed.w.task.branch);
    const cancelled = await worktree('cancelled');
    await c.call('task_update', { id: cancelled.id, status: 'cancelled' });
    const dirty = await worktree('cancelled with uncommitted work');
    writeFiles(dirty.w.cwd, { 'wip.txt': 'not committed\n' });
    await c.call('task_update', { id: dirty.id, status: 'cancelled' });
    const waiting = await worktree('done, not landed');
    await done(waiting.id);
    const open = await worktree('still being worked on');
    const running = await c.call<WorkerCommandResult>('worker_command', {
      taskId: (await c.call<{ id: number }>('task_create', { title: 'cancelled while its agent runs' })).id,
    });
    await c.call('task_update', { id: running.task.id, status: 'cancelled' });

    const roomy = cliJson<BudgetResult>(['worker', 'cleanup', '--budget', '1GB', '--workspace', repo]);
    assert.deepEqual(roomy.removed, [], 'under the budget nothing goes');
    assert.ok(roomy.usedBytes > 5 * 20_000, `used ${roomy.usedBytes}`);

    const tight = cliJson<BudgetResult>(['worker', 'cleanup', '--budget', '1', '--workspace', repo]);
    assert.deepEqual(
      tight.removed.map((r) => [r.taskId, r.reason]),
      [
        [landed.id, "landed; over the worktrees' disk budget"],
        [cancelled.id, "task cancelled; over the worktrees' disk budget"],
      ],
    );
    assert.ok(!fs.existsSync(landed.w.cwd) && !fs.existsSync(cancelled.w.cwd));
    assert.match(git(repo, 'branch', '--list', cancelled.w.task.branch), /task-/, 'an unmerged branch is kept');
    const kept = Object.fromEntries(tight.skipped.map((s) => [s.taskId, s.reason]));
    assert.equal(kept[dirty.id], 'it has uncommitted changes');
    assert.equal(kept[waiting.id], 'its task is done and not landed');
    assert.equal(kept[open.id], 'its task is in_progress and not landed');
    assert.equal(kept[running.task.id], 'a session is still running there');
    for (const cwd of [dirty.w.cwd, waiting.w.cwd, open.w.cwd, running.cwd]) assert.ok(fs.existsSync(cwd));

    const bad = cli(['worker', 'cleanup', '--budget', 'plenty', '--workspace', repo, '--json']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--budget: must be a size such as 5GB/);
  } finally {
    await c.close();
  }
});
