// The read model of the editor's Agents & Sessions view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServices } from '../../../../src/app/services';
import { parseInput } from '../../../../src/core/contracts/inputValidation';
import { sessionEndInput } from '../../../../src/core/sessions/sessionContracts';
import { taskCreateInput } from '../../../../src/core/tasks/taskContracts';
import { tempRepo } from '../../../helpers/tmp';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { ownerProcess, setOwnerProcess } from '../../../../src/core/machine';
import { countByLiveness } from '../../../../src/core/sessions/agentSessions';
import { probeProcess } from '../../../../src/processes/processIdentity';
import { sessionCountText } from '../../../../src/views/agentText';

test('the Agents & Sessions read model: agents by activity, running sessions first, then recent ones', async () => {
  const repo = tempRepo();
  const services = await createServices({ workspace: repo });
  try {
    const a = await services.tasks.create(parseInput('task_create', taskCreateInput, { title: 'First' }));
    const b = await services.tasks.create(parseInput('task_create', taskCreateInput, { title: 'Second' }));
    const s1 = await services.sessions.start({ taskId: a.id, agent: 'coder', allowConcurrent: false });
    await services.sessions.end(
      parseInput('session_end', sessionEndInput, { sessionId: s1.sessionId, exitCode: 1, dodResult: 'error' }),
    );
    const worker = await services.workers.command({
      taskId: b.id,
      agent: 'coder',
      auto: false,
      allowConcurrent: false,
      force: false,
      allowOverlap: false,
    });
    const s3 = await services.sessions.start({ taskId: a.id, agent: 'reviewer', allowConcurrent: false });

    const queries = services.agentSessions;
    assert.deepEqual(
      (await queries.agents()).map((x) => [x.agent, x.running, x.total]),
      [
        ['reviewer', 1, 1],
        ['coder', 1, 2],
      ],
    );
    const coder = await queries.sessionsOf('coder');
    assert.deepEqual(
      coder.map((x) => [x.session.id, x.session.status, x.taskTitle, x.worktreeActive]),
      [
        [worker.sessionId, 'running', 'Second', true],
        [s1.sessionId, 'failed', 'First', false],
      ],
    );
    assert.equal(coder[0].session.branch, `task-${b.id}-s${worker.sessionId}`);
    assert.equal(coder[1].session.exitCode, 1);
    assert.deepEqual(
      (await queries.latest({ running: true })).map((x) => x.session.id),
      [s3.sessionId, worker.sessionId],
    );
    assert.deepEqual(
      (await queries.latest({ withWorktree: true })).map((x) => x.session.id),
      [worker.sessionId],
    );

    // Once cleaned up, the worktree is no longer offered.
    await services.sessions.end(
      parseInput('session_end', sessionEndInput, { sessionId: worker.sessionId, exitCode: 0, dodResult: 'merged' }),
    );
    const cleanup = await services.worktreeCleanup.run({ olderThanDays: 14, force: false, dryRun: false });
    assert.deepEqual(
      cleanup.removed.map((r) => r.reason),
      ['merged'],
    );
    assert.equal((await queries.session(worker.sessionId))?.worktreeActive, false);
    assert.deepEqual(await queries.latest({ withWorktree: true }), []);
  } finally {
    await services.dispose();
  }
});

test('an agent counts only live sessions as running: one whose process is gone counts stale, and ended by a person says so', async () => {
  const repo = tempRepo();
  const services = await createServices({ workspace: repo });
  // Two real processes own the sessions: one is killed, the other lives.
  const spawnIdle = () => spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  const doomed = spawnIdle();
  const living = spawnIdle();
  const previous = ownerProcess();
  try {
    const startOwnedBy = async (child: typeof doomed, title: string) => {
      setOwnerProcess({ pid: child.pid!, startToken: (await probeProcess(child.pid!))!.startToken });
      const task = await services.tasks.create(parseInput('task_create', taskCreateInput, { title }));
      return (await services.sessions.start({ taskId: task.id, agent: 'coder', allowConcurrent: false })).sessionId;
    };
    const gone = await startOwnedBy(doomed, 'Gone');
    await startOwnedBy(living, 'Lives');
    const counts = async () =>
      (await services.agentSessions.agents()).map((a) => [a.agent, a.running, a.stale, a.alive, a.total]);
    assert.deepEqual(await counts(), [['coder', 2, 0, 2, 2]]);
    // The views look again while a process runs and redraw only when this changes.
    const before = await services.agentSessions.livenessSignature();
    assert.equal(await services.agentSessions.livenessSignature(), before, 'nothing died: the same signature');

    doomed.kill('SIGKILL');
    await once(doomed, 'exit');
    assert.notEqual(await services.agentSessions.livenessSignature(), before, 'a process died: the signature moves');
    assert.deepEqual(
      await counts(),
      [['coder', 1, 1, 1, 2]],
      'the session whose process is gone is stale, not running',
    );
    assert.equal(sessionCountText((await services.agentSessions.agents())[0]), '1 running, 1 stale');

    const ended = await services.sessions.end(
      parseInput('session_end', sessionEndInput, { sessionId: gone, exitCode: 1 }),
      'ann',
    );
    assert.equal(ended.endedBy, 'ann');
    assert.equal((await services.agentSessions.session(gone))?.session.endedBy, 'ann');
    assert.deepEqual(await counts(), [['coder', 1, 0, 1, 2]]);
    assert.equal(sessionCountText((await services.agentSessions.agents())[0]), '1 running');
  } finally {
    setOwnerProcess(previous);
    doomed.kill('SIGKILL');
    living.kill('SIGKILL');
    await services.dispose();
  }
});

test('running sessions counted by liveness: elsewhere and unknown are not called stale', () => {
  assert.deepEqual(countByLiveness(['alive', 'stale', 'elsewhere', 'unknown', 'stale']), {
    running: 3,
    stale: 2,
    alive: 1,
  });
  assert.deepEqual(countByLiveness([]), { running: 0, stale: 0, alive: 0 });
});
