import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { ProcessError } from '../../../src/core/runtime/processErrors';
import type { ProcessExit } from '../../../src/core/ports/processes';
import { readLog } from '../../../src/processes/logReader';
import { childSpec, supervisor, waitForLine } from './supervisorFixture';

test('a process that exits: its code, both streams in one log told apart, duration, bytes, tail', async () => {
  const sup = supervisor();
  const exits: ProcessExit[] = [];
  sup.onDidExit((e) => exits.push(e));
  const proc = await sup.start(childSpec('exit', ['3']));
  assert.ok(proc.pid > 0);
  const exit = await proc.exited;
  assert.equal(exit.exitCode, 3);
  assert.equal(exit.signal, null);
  assert.equal(exit.limit, null);
  assert.equal(exit.stopped, false);
  assert.equal(exit.stdoutBytes, 'out line\n'.length);
  assert.equal(exit.stderrBytes, 'err line\n'.length);
  assert.ok(exit.durationMs >= 0 && exit.durationMs < 10_000);
  assert.deepEqual([...exit.tail].sort(), ['err line', 'out line']);
  const { entries } = await readLog(exit.logFile);
  const output = entries.filter((e) => e.stream !== 'meta').map((e) => `${e.stream}:${e.message}`);
  assert.deepEqual(output.sort(), ['stderr:err line', 'stdout:out line']);
  assert.deepEqual(
    entries.map((e) => e.seq),
    entries.map((_, i) => i + 1),
    'seq numbers every entry in write order',
  );
  assert.equal(entries[0].stream, 'meta');
  assert.equal(entries.at(-1)?.data?.exitCode, 3);
  assert.deepEqual(exits, [exit], 'onDidExit fired once with the same result');
  assert.equal(sup.status(proc.id)?.state, 'exited');
  assert.deepEqual(sup.list(), []);
});

test('a process killed by a signal reports the signal, not a code', async () => {
  const proc = await supervisor().start(childSpec('kill-self', ['SIGKILL']));
  const exit = await proc.exited;
  assert.equal(exit.exitCode, null);
  assert.equal(exit.signal, 'SIGKILL');
});

test('input is sent to stdin while the process runs; status and list see it running', async () => {
  const sup = supervisor();
  const proc = await sup.start(childSpec('echo-stdin', [], { stdin: { kind: 'pipe', initial: 'first\n' } }));
  assert.deepEqual(
    sup.list().map((s) => s.id),
    [proc.id],
  );
  assert.equal(sup.status(proc.id)?.state, 'running');
  await sup.send(proc.id, 'second\n');
  await sup.send(proc.id, 'quit\n');
  const exit = await proc.exited;
  assert.equal(exit.exitCode, 0);
  assert.deepEqual(exit.tail, ['got first', 'got second', 'bye']);
  await assert.rejects(sup.send(proc.id, 'late\n'), (ex) => ProcessError.is(ex, 'notRunning'));
});

test('stdin text is the whole input, then end of file', async () => {
  const proc = await supervisor().start(childSpec('echo-stdin', [], { stdin: { kind: 'text', text: 'a\nb\n' } }));
  assert.deepEqual((await proc.exited).tail, ['got a', 'got b', 'bye']);
});

test('stop: SIGTERM to the group, SIGKILL after the grace period when it is ignored', async () => {
  const sup = supervisor();
  const proc = await sup.start(childSpec('ignore-term'));
  await waitForLine(proc.record.logFile, 'ready');
  const started = Date.now();
  const exit = await sup.stop(proc.id, { graceMs: 300 });
  assert.equal(exit.signal, 'SIGKILL');
  assert.equal(exit.stopped, true);
  assert.equal(exit.limit, null);
  assert.ok(Date.now() - started >= 250, 'the grace period was given');
  assert.ok(exit.tail.includes('ignoring SIGTERM'), 'SIGTERM came first');
  assert.equal(await sup.stop(proc.id), exit, 'stopping an ended process answers how it ended');
});

test('the environment is exactly the one given (plus secrets), nothing inherited', async () => {
  const proc = await supervisor().start(
    childSpec('env', [], {
      env: { PATH: process.env.PATH ?? '', ONLY_THIS: '1' },
      secretEnv: { LEDGER_KEY: 'k-123456' },
    }),
  );
  const exit = await proc.exited;
  const keys = JSON.parse(exit.tail[0]) as string[];
  // macOS adds __CF_USER_TEXT_ENCODING to every process.
  assert.deepEqual(
    keys.filter((k) => k !== '__CF_USER_TEXT_ENCODING'),
    ['LEDGER_KEY', 'ONLY_THIS', 'PATH'],
  );
});

test('refusals before anything runs: bad program names, missing program or folder, secrets in argv, duplicate ids', async () => {
  const sup = supervisor();
  for (const program of ['sh -c "touch x"', './child', 'bin/child', '-x', '', 'a;b', '$(id)']) {
    await assert.rejects(
      sup.start(childSpec('exit', ['0'], { program })),
      (ex) => ProcessError.is(ex, 'invalidProgram'),
      program,
    );
  }
  await assert.rejects(sup.start(childSpec('exit', ['0'], { program: 'agent-ledger-no-such-program' })), (ex) =>
    ProcessError.is(ex, 'programNotFound'),
  );
  await assert.rejects(sup.start(childSpec('exit', ['0'], { program: '/no/such/node' })), (ex) =>
    ProcessError.is(ex, 'programNotFound'),
  );
  await assert.rejects(sup.start(childSpec('exit', ['0'], { cwd: '/no/such/folder' })), (ex) =>
    ProcessError.is(ex, 'cwdMissing'),
  );
  await assert.rejects(
    sup.start(childSpec('args', ['--key=s3cr3t-value'], { secretEnv: { KEY: 's3cr3t-value' } })),
    (ex) => ProcessError.is(ex, 'secretInArgs') && !(ex as Error).message.includes('s3cr3t'),
  );
  await assert.rejects(
    sup.start(
      childSpec('args', [`--auth=${Buffer.from('s3cr3t-value').toString('base64')}`], {
        secretEnv: { KEY: 's3cr3t-value' },
      }),
    ),
    (ex) => ProcessError.is(ex, 'secretInArgs'),
    'an encoded secret is a secret on the command line too',
  );
  await assert.rejects(sup.start(childSpec('exit', ['0'], { id: '../escape' })), (ex) =>
    ProcessError.is(ex, 'invalidId'),
  );
  const spec = childSpec('idle');
  await sup.start(spec);
  await assert.rejects(sup.start({ ...spec }), (ex) => ProcessError.is(ex, 'duplicateId'));
  assert.throws(
    () => sup.closeInput('nobody'),
    (ex) => ProcessError.is(ex, 'unknownProcess'),
  );
  await sup.stop(spec.id, { graceMs: 100 });
});

test('a bare program name is found on the PATH of the child, not of the supervisor', async () => {
  const bin = path.dirname(process.execPath);
  const spec = childSpec('exit', ['0'], {
    program: path.basename(process.execPath),
    env: { PATH: `/nonexistent${path.delimiter}${bin}` },
  });
  const proc = await supervisor().start(spec);
  assert.equal(
    proc.record.program,
    path.join(bin, path.basename(process.execPath)),
    'resolved on the child PATH, recorded absolute',
  );
  assert.equal((await proc.exited).exitCode, 0);
  await assert.rejects(supervisor().start({ ...spec, id: 'other', env: { PATH: '/nonexistent' } }), (ex) =>
    ProcessError.is(ex, 'programNotFound'),
  );
});
