// A process that dies with its supervisor runs under the watchdog (src/processes/watchdog.ts): the
// program's exit code, signal, output and input are as without it; a stop ends the program; and
// on Linux a descendant that left the group (setsid) is ended with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alive, childSpec, supervisor, waitForLine } from './supervisorFixture';

test('under the watchdog: the exit code, a signal, the output and the input are the program’s own', async () => {
  const sup = supervisor();
  const exit = await (await sup.start(childSpec('exit', ['3'], { dieWithSupervisor: true }))).exited;
  assert.equal(exit.exitCode, 3);
  assert.deepEqual([...exit.tail].sort(), ['err line', 'out line']);
  const killed = await (await sup.start(childSpec('kill-self', ['SIGKILL'], { dieWithSupervisor: true }))).exited;
  assert.equal(killed.signal, 'SIGKILL');
  const echo = await sup.start(childSpec('echo-stdin', [], { dieWithSupervisor: true, stdin: { kind: 'pipe' } }));
  await sup.send(echo.id, 'hello\n');
  await waitForLine(echo.record.logFile, 'got hello');
  const stopped = await sup.stop(echo.id, { graceMs: 1000 });
  assert.equal(stopped.signal, 'SIGTERM', 'the stop reached the program, and the watchdog ended as it did');
});

test(
  'under the watchdog on Linux: a descendant that left the group with setsid ends with the program',
  { skip: process.platform !== 'linux' && 'the watchdog looks at descendants through /proc' },
  async () => {
    const sup = supervisor();
    const script = `const d = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
      console.log('daemon:' + d.pid);
      setTimeout(() => process.exit(0), 1800);`;
    const proc = await sup.start({ ...childSpec('exit', ['0']), args: ['-e', script], dieWithSupervisor: true });
    const exit = await proc.exited;
    const line = exit.tail.find((l) => l.startsWith('daemon:'));
    assert.ok(line, exit.tail.join('\n'));
    const daemon = Number(line.slice('daemon:'.length));
    const deadline = Date.now() + 5000;
    while ((await alive(daemon)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const left = await alive(daemon);
    if (left) process.kill(daemon, 'SIGKILL');
    assert.equal(left, false, 'the setsid daemon was ended too');
  },
);
