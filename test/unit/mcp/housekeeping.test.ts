import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Housekeeping } from '../../../src/mcp/housekeeping';

test('stop() waits for the job in flight and runs no job after it', async () => {
  const ran: string[] = [];
  let release!: () => void;
  const slow = new Promise<void>((resolve) => (release = resolve));
  const h = new Housekeeping(
    [
      ['slow', () => slow.then(() => ran.push('slow'))],
      ['next', async () => ran.push('next')],
    ],
    () => undefined,
    60_000,
  );
  h.start();
  let stopped = false;
  const stopping = h.stop().then(() => (stopped = true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(stopped, false, 'stop waits for the job in flight');
  release();
  await stopping;
  assert.deepEqual(ran, ['slow'], 'the job after it did not run');
  h.start();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(ran, ['slow'], 'a stopped housekeeping does not start again');
});

test('a failing job is logged and the round goes on', async () => {
  const lines: string[] = [];
  const ran: string[] = [];
  const h = new Housekeeping(
    [
      ['purge', () => Promise.reject(new Error('store busy'))],
      ['retention', async () => ran.push('retention')],
    ],
    (line) => lines.push(line),
    60_000,
  );
  h.start();
  await new Promise((resolve) => setTimeout(resolve, 20));
  await h.stop();
  assert.deepEqual(lines, ['purge: store busy']);
  assert.deepEqual(ran, ['retention']);
});
