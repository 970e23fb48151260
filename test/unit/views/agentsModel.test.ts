// The Agents page's model and End Session as a page sends it: one count per agent, the person
// recorded, bad input refused with a coded error that changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServices } from '../../../src/app/services';
import { LedgerError } from '../../../src/core/errors';
import { parseInput } from '../../../src/core/contracts/inputValidation';
import { taskCreateInput } from '../../../src/core/tasks/taskContracts';
import { ownerProcess, setOwnerProcess } from '../../../src/core/machine';
import { probeProcess } from '../../../src/processes/processIdentity';
import { agentsModel, endSessionAs, watchesLiveness } from '../../../src/views/agentsModel';
import { tempRepo } from '../../helpers/tmp';

test('the Agents model counts a session whose process died as stale; End Session from a page records the person', async () => {
  const repo = tempRepo();
  const services = await createServices({ workspace: repo });
  const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  const previous = ownerProcess();
  try {
    setOwnerProcess({ pid: holder.pid!, startToken: (await probeProcess(holder.pid!))!.startToken });
    const task = await services.tasks.create(
      parseInput('task_create', taskCreateInput, { title: 'Held by a process' }),
    );
    const { sessionId } = await services.sessions.start({ taskId: task.id, agent: 'coder', allowConcurrent: false });
    const folder = { name: 'repo', root: repo };
    const coder = async () => (await agentsModel(services, folder)).agents.find((a) => a.name === 'coder')!;

    let model = await agentsModel(services, folder);
    assert.equal((await coder()).sessionCounts, '1 running');
    assert.equal(watchesLiveness(model), true, 'a live process is watched');

    holder.kill('SIGKILL');
    await once(holder, 'exit');
    model = await agentsModel(services, folder);
    assert.equal((await coder()).sessionCounts, '1 stale');
    assert.equal((await coder()).sessions[0].liveness, 'stale');
    assert.equal(watchesLiveness(model), false, 'nothing left to watch');

    // What a page may send wrong: refused with the tool's coded error, the session untouched.
    for (const bad of [
      { sessionId, exitCode: 'x' },
      { sessionId, exitCode: 1.5 },
      { sessionId, exitCode: 1, dodResult: 'finished' },
      { sessionId: 'nope', exitCode: 1 },
    ]) {
      await assert.rejects(endSessionAs(services, 'ann', bad), (err: unknown) => {
        assert.ok(LedgerError.is(err) && err.code === 'ValidationError', String(err));
        return true;
      });
    }
    assert.equal((await services.sessions.get(sessionId)).status, 'running');

    const said = await endSessionAs(services, 'ann', { sessionId, exitCode: 137, dodResult: '' });
    assert.match(said, new RegExp(`^Session ${sessionId} ended by ann: failed \\(exit 137\\)`));
    const ended = await services.sessions.get(sessionId);
    assert.deepEqual([ended.status, ended.exitCode, ended.endedBy], ['failed', 137, 'ann']);
    assert.equal((await coder()).sessionCounts, null);
    assert.equal((await coder()).sessions[0].endedBy, 'ann');

    await assert.rejects(endSessionAs(services, 'ann', { sessionId, exitCode: 0 }), /already ended/);
  } finally {
    setOwnerProcess(previous);
    holder.kill('SIGKILL');
    await services.dispose();
  }
});
