// Whether a running session's process still runs, seen from this machine: a real child process
// started and killed, probed by the processes layer's probe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { livenessOf, sessionLiveness } from '../../../../src/core/sessions/sessionLiveness';
import { probeProcess } from '../../../../src/processes/processIdentity';

const running = (id: number, machine: string | null, pid: number | null, startToken: string | null) => ({
  id,
  status: 'running' as const,
  process: { machine, pid, startToken },
});

test('a session is alive while its process runs, stale once it is gone, elsewhere on another machine, unknown with no process', async () => {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  try {
    const token = (await probeProcess(child.pid!))!.startToken;
    const sessions = [
      running(1, 'here', child.pid!, token),
      running(2, 'there', child.pid!, token),
      running(3, 'here', null, null),
      running(4, 'here', child.pid!, 'linux:another-boot:1'),
      { ...running(5, 'here', child.pid!, token), status: 'completed' as const },
    ];
    assert.deepEqual(
      [...(await sessionLiveness(sessions, 'here', probeProcess))],
      [
        [1, 'alive'],
        [2, 'elsewhere'],
        [3, 'unknown'],
        [4, 'stale'],
      ],
      'a pid that now names another process (other start) is stale; an ended session has no liveness',
    );
    child.kill('SIGKILL');
    await once(child, 'exit');
    assert.equal((await sessionLiveness(sessions, 'here', probeProcess)).get(1), 'stale');
    assert.equal((await sessionLiveness(sessions, 'here', probeProcess)).get(2), 'elsewhere', 'never probed');
  } finally {
    child.kill('SIGKILL');
  }
  assert.equal(livenessOf(running(6, 'here', 42, 't'), 'here', undefined), 'unknown', 'no probe: unknown');
});
