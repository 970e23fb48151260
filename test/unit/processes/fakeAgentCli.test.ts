import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { maxPromptArgBytes } from '../../../src/core/runtime/launch/clientLaunch';
import { buildLaunchPlan } from '../../../src/core/runtime/launch/clients';
import type { ProcessExit, ProcessLimits } from '../../../src/core/ports/processes';
import { launchClient, readRunUsage } from '../../../src/processes/launchClient';
import type { FakeScript } from '../../helpers/fakeAgents';
import { fakeAgents } from '../../helpers/fakeAgents';
import { tempDir } from '../../helpers/tmp';
import { supervisor } from './supervisorFixture';

let runs = 0;

/** Runs one fake with raw arguments (no MCP server) under the supervisor. */
async function runFake(
  program: string,
  args: string[],
  script?: FakeScript,
  limits?: ProcessLimits,
): Promise<ProcessExit> {
  const dir = tempDir('agent-ledger-fake-');
  const proc = await supervisor().start({
    id: `fake-${++runs}`,
    program,
    args,
    cwd: dir,
    env: fakeAgents().env(script),
    logDir: path.join(dir, 'logs'),
    limits,
  });
  return proc.exited;
}

test('the fakes refuse flags the real clients do not have, as the real parsers do', async () => {
  const claude = await runFake('claude', ['-p', '--bogus', '--', 'hi']);
  assert.equal(claude.exitCode, 1);
  assert.match(claude.tail.join('\n'), /unknown option '--bogus'/);
  const codex = await runFake('codex', ['exec', '--bogus', 'hi']);
  assert.equal(codex.exitCode, 2);
  assert.match(codex.tail.join('\n'), /unexpected argument '--bogus' found/);
  const gemini = await runFake('gemini', ['--bogus', '--prompt=hi']);
  assert.equal(gemini.exitCode, 1);
  assert.match(gemini.tail.join('\n'), /Unknown arguments: bogus/);
  const both = await runFake('gemini', ['--yolo', '--approval-mode=yolo', '--prompt=hi']);
  assert.equal(both.exitCode, 1);
  const choice = await runFake('claude', ['-p', '--output-format=xml', '--', 'hi']);
  assert.equal(choice.exitCode, 1);
});

test('behaviour steps: an exit code, a crash, an abort', async () => {
  assert.equal((await runFake('claude', ['-p', '--', 'hi'], { steps: [{ exit: 3 }] })).exitCode, 3);
  const crash = await runFake('codex', ['exec', 'hi'], { steps: [{ crash: true }] });
  assert.equal(crash.exitCode, 1);
  assert.ok(crash.tail.some((l) => l.includes('scripted crash')));
  const abort = await runFake('gemini', ['--prompt=hi'], { steps: [{ crash: 'abort' }] });
  assert.equal(abort.signal, 'SIGABRT');
});

test('behaviour steps: a hang that ignores SIGTERM meets the wall clock, a flood meets the output limit', async () => {
  const hang = await runFake(
    'claude',
    ['-p', '--', 'hi'],
    { steps: [{ print: 'working' }, { hang: true, ignoreTerm: true }] },
    { wallClockMs: 1500, killGraceMs: 300 },
  );
  assert.equal(hang.limit, 'wallClock');
  assert.equal(hang.signal, 'SIGKILL');
  assert.ok(hang.tail.includes('fake agent: ignoring SIGTERM'));
  const flood = await runFake(
    'codex',
    ['exec', 'hi'],
    { steps: [{ print: 'x'.repeat(99), times: 100_000 }] },
    { maxOutputBytes: 50_000, killGraceMs: 300 },
  );
  assert.equal(flood.limit, 'outputBytes');
  assert.ok(flood.stdoutBytes > 50_000);
});

test('a prompt too long for the command line reaches each fake through stdin, and its output parses', async () => {
  const prompt = `agent_id: coder\n${'y'.repeat(maxPromptArgBytes + 10)}`;
  for (const client of ['claude', 'codex', 'gemini'] as const) {
    const fakes = fakeAgents();
    const dir = tempDir('agent-ledger-fake-');
    const plan = buildLaunchPlan(client, { prompt, cwd: dir, configDir: path.join(dir, 'cfg') });
    const proc = await launchClient(supervisor(), plan, {
      id: `long-${client}`,
      logDir: path.join(dir, 'logs'),
      env: fakes.env({ steps: [], usage: { inputTokens: 7, outputTokens: 8, costUsd: 0.5 }, result: 'ok' }),
    });
    const exit = await proc.exited;
    assert.equal(exit.exitCode, 0, `${client}: ${exit.tail.join('\n')}`);
    assert.equal(fakes.runs()[0].prompt.trim(), prompt, client);
    assert.ok(
      fakes.runs()[0].argv.every((a) => a.length < 1000),
      `${client}: the prompt is not in argv`,
    );
    const usage = await readRunUsage(exit, plan.output);
    assert.deepEqual([usage?.inputTokens, usage?.outputTokens, usage?.result], [7, 8, 'ok'], client);
  }
});
