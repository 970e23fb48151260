import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readLog } from '../../../src/processes/logReader';
import { alive, childSpec, supervisor } from './supervisorFixture';

test('wall clock: a hanging process and its children (the whole group) are stopped, SIGKILL when SIGTERM is ignored', async () => {
  const spec = childSpec('hang-with-grandchild');
  const pidFile = path.join(spec.cwd, 'grandchild.pid');
  spec.args = [...spec.args, pidFile];
  spec.limits = { wallClockMs: 600, killGraceMs: 300 };
  const proc = await supervisor().start(spec);
  const exit = await proc.exited;
  assert.equal(exit.limit, 'wallClock');
  assert.equal(exit.signal, 'SIGKILL', 'SIGTERM was ignored, SIGKILL followed');
  assert.ok(exit.durationMs >= 600, `ran ${exit.durationMs} ms`);
  const grandchild = Number(fs.readFileSync(pidFile, 'utf8'));
  await waitUntil(async () => !(await alive(grandchild)));
  assert.equal(await alive(grandchild), false, 'the grandchild went with its group');
  const { entries } = await readLog(exit.logFile);
  assert.ok(entries.some((e) => e.data?.limit === 'wallClock' && /wall-clock limit of 600 ms/.test(e.message)));
});

test('output limit: logging stops at the budget and the process is stopped', async () => {
  const spec = childSpec('flood', [], { limits: { maxOutputBytes: 20_000, killGraceMs: 300 } });
  const proc = await supervisor().start(spec);
  const exit = await proc.exited;
  assert.equal(exit.limit, 'outputBytes');
  assert.equal(exit.signal, 'SIGTERM');
  assert.ok(exit.stdoutBytes > 20_000);
  const { entries } = await readLog(exit.logFile);
  const logged = entries
    .filter((e) => e.stream === 'stdout')
    .reduce((n, e) => n + Buffer.byteLength(e.message) + (e.eol === false ? 0 : 1), 0);
  assert.ok(logged <= 20_000, `logged ${logged} bytes of output`);
  assert.ok(logged >= 19_000, `logged ${logged} bytes of output`);
  assert.ok(entries.some((e) => e.stream === 'meta' && e.data?.limit === 'outputBytes'));
  assert.ok(fs.statSync(exit.logFile).size < 60_000, 'the log file stays bounded');
});

test('idle limit: a process that stops printing is stopped', async () => {
  const proc = await supervisor().start(childSpec('idle', [], { limits: { idleMs: 400, wallClockMs: 20_000 } }));
  const exit = await proc.exited;
  assert.equal(exit.limit, 'idle');
  assert.equal(exit.signal, 'SIGTERM');
  assert.deepEqual(exit.tail, ['hello']);
  assert.ok(exit.durationMs >= 400 && exit.durationMs < 15_000);
});

test('a process that ends within its limits reports no limit', async () => {
  const proc = await supervisor().start(
    childSpec('ticks', ['3', '50'], { limits: { wallClockMs: 20_000, idleMs: 5_000, maxOutputBytes: 1_000 } }),
  );
  const exit = await proc.exited;
  assert.equal(exit.limit, null);
  assert.equal(exit.exitCode, 0);
  assert.deepEqual(exit.tail, ['tick 1', 'tick 2', 'tick 3']);
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

test('updateLimits: a shorter wall clock still counts from spawn, and a budget below what was printed cuts the output at once', async () => {
  const sup = supervisor();
  const t0 = Date.now();
  const slow = await sup.start(childSpec('idle', [], { limits: { wallClockMs: 60_000, killGraceMs: 300 } }));
  await new Promise((r) => setTimeout(r, 300));
  sup.updateLimits(slow.id, { wallClockMs: 700 });
  const exit = await slow.exited;
  assert.equal(exit.limit, 'wallClock');
  assert.ok(exit.durationMs >= 700 && Date.now() - t0 < 10_000, `ran ${exit.durationMs} ms`);
  const { entries } = await readLog(exit.logFile);
  assert.ok(entries.some((e) => e.stream === 'meta' && e.message === 'limits changed'));
  assert.throws(() => sup.updateLimits(slow.id, { wallClockMs: 1 }), /has ended/);

  const ticking = await sup.start(
    childSpec('ticks', ['1000', '20'], { limits: { wallClockMs: 60_000, killGraceMs: 300 } }),
  );
  await new Promise((r) => setTimeout(r, 400));
  sup.updateLimits(ticking.id, { wallClockMs: 60_000, maxOutputBytes: 10 });
  const cut = await ticking.exited;
  assert.equal(cut.limit, 'outputBytes');
});
