import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import { cli, cliError, cliJson } from '../helpers/cli';
import { tempRepo } from '../helpers/tmp';

/**
 * A client whose answer was lost retries the same call: with the same `idempotency_key`, every
 * tool that creates something — task_create, start_workflow, start_task, worker_command — gives
 * the first answer again and creates nothing more, whichever server process the retry reaches
 * (one key, one change, even when two race); the same key with other arguments is refused. The
 * CLI takes the key as `--idempotency-key`. Runs on both stores (`npm run test:pg`).
 */
test('a retried create with the same idempotency_key returns the first answer and creates nothing new', async () => {
  const repo = tempRepo({ 'README.md': '# app\n' });
  const [a, b] = await Promise.all([connect(repo), connect(repo)]);
  try {
    // task_create, the retry reaching another server process.
    const task = await a.call<{ id: number; idempotent: boolean; idempotency_key: string }>('task_create', {
      title: 'Add rate limiting',
      idempotency_key: 'create-1',
    });
    assert.equal(task.idempotent, false);
    assert.equal(task.idempotency_key, 'create-1');
    const taskAgain = await b.call<{ id: number; idempotent: boolean }>('task_create', {
      title: 'Add rate limiting',
      idempotency_key: 'create-1',
    });
    assert.equal(taskAgain.id, task.id);
    assert.equal(taskAgain.idempotent, true);
    const conflict = await b.fail('task_create', { title: 'Something else', idempotency_key: 'create-1' });
    assert.equal(conflict.data?.error, 'E-IDEMPOTENCY-CONFLICT');
    const plain = await a.call<Record<string, unknown>>('task_create', { title: 'No key' });
    assert.equal('idempotent' in plain, false, 'without a key the answer is the contract’s as before');
    assert.equal((await a.call<{ total: number }>('task_list')).total, 2);

    // start_workflow and start_task.
    const workflow = await a.call<{ workflow_id: string }>('start_workflow', { name: 'Retry', idempotency_key: 'wf' });
    const workflowAgain = await b.call<{ workflow_id: string; idempotent: boolean }>('start_workflow', {
      name: 'Retry',
      idempotency_key: 'wf',
    });
    assert.equal(workflowAgain.workflow_id, workflow.workflow_id);
    assert.equal(workflowAgain.idempotent, true);
    const started = { workflow_id: workflow.workflow_id, name: 'Step', goal: 'Do it', idempotency_key: 'st' };
    // Two processes race with one key: one task, one answer.
    const [s1, s2] = await Promise.all([
      a.call<{ task_id: string; snapshot_id: string }>('start_task', started),
      b.call<{ task_id: string; snapshot_id: string }>('start_task', started),
    ]);
    assert.equal(s1.task_id, s2.task_id);
    assert.equal(s1.snapshot_id, s2.snapshot_id);
    assert.equal((await a.call<{ total: number }>('task_list')).total, 3, 'one task started, not two');

    // worker_command: one session, one worktree, the same command.
    const command = { taskId: task.id, agent: 'coder', idempotency_key: 'launch-1' };
    const w1 = await a.call<{ sessionId: number; command: string; idempotent: boolean }>('worker_command', command);
    const w2 = await b.call<{ sessionId: number; command: string; idempotent: boolean }>('worker_command', command);
    assert.equal(w2.sessionId, w1.sessionId);
    assert.equal(w2.command, w1.command);
    assert.deepEqual([w1.idempotent, w2.idempotent], [false, true]);
    const sessions = await a.call<{ sessions: unknown[] }>('session_list', { taskId: task.id });
    assert.equal(sessions.sessions.length, 1);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test('the CLI takes --idempotency-key: a retried task create or worker command creates nothing new', () => {
  const repo = tempRepo({ 'README.md': '# app\n' });
  const args = ['task', 'create', 'From a script', '--idempotency-key', 'nightly-1', '--workspace', repo];
  const first = cliJson<{ id: number; idempotent: boolean }>(args);
  const again = cliJson<{ id: number; idempotent: boolean }>(args);
  assert.equal(again.id, first.id);
  assert.deepEqual([first.idempotent, again.idempotent], [false, true]);
  const other = cli(['task', 'create', 'Other title', '--idempotency-key', 'nightly-1', '--workspace', repo, '--json']);
  assert.equal(other.code, 2, other.stderr);
  assert.equal(cliError(other).data?.error, 'E-IDEMPOTENCY-CONFLICT');
  assert.equal(cliJson<{ total: number }>(['task', 'list', '--workspace', repo]).total, 1);
  // Queueing for an agent remembers no key: refused, not ignored, and nothing is written.
  const queued = cli(['task', 'create', 'Queued', '--agent', 'coder', '--idempotency-key', 'q-1', '--workspace', repo]);
  assert.equal(queued.code, 2, queued.stderr);
  assert.match(queued.stderr, /--idempotency-key is not taken with --agent/);
  assert.equal(cliJson<{ total: number }>(['task', 'list', '--workspace', repo]).total, 1);

  const launch = ['worker', 'command', String(first.id), '--idempotency-key', 'w-1', '--workspace', repo];
  const w1 = cli(launch);
  const w2 = cli(launch);
  assert.equal(w1.code, 0, w1.stderr);
  assert.equal(w2.stdout, w1.stdout, 'the same launch command');
  assert.equal(
    cliJson<{ sessions: unknown[] }>(['session', 'list', '--task', String(first.id), '--workspace', repo]).sessions
      .length,
    1,
  );
});
