import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { LogEntry } from '../../../src/core/ports/processes';
import { LineFramer, Redactor, redactionMark } from '../../../src/processes/lineFramer';
import { followLog, readLog, tailLog } from '../../../src/processes/logReader';
import { childSpec, supervisor } from './supervisorFixture';

const secret = 'pk_live_7Hq2ZxW9mN4s';

test('a secret the child prints, split across writes and on both streams, never reaches the log, the record or the summary', async () => {
  const spec = childSpec('secret', ['AGENT_LEDGER_PASSKEY'], { secretEnv: { AGENT_LEDGER_PASSKEY: secret } });
  const proc = await supervisor().start(spec);
  const exit = await proc.exited;
  assert.equal(exit.exitCode, 0);
  const raw = fs.readFileSync(exit.logFile, 'utf8');
  assert.ok(!raw.includes(secret), 'the whole secret is absent');
  assert.ok(!raw.includes(secret.slice(0, 10)) && !raw.includes(secret.slice(10)), 'no half of it either');
  const lines = (await readLog(exit.logFile)).entries.filter((e) => e.stream !== 'meta');
  assert.deepEqual(
    lines.map((e) => `${e.stream}:${e.message}${e.eol === false ? '…' : ''}`),
    // The partial line was flushed after 200 ms without the half that could become the secret.
    ['stdout:token=…', `stdout:${redactionMark} end`, `stderr:again ${redactionMark}…`],
  );
  assert.ok(!JSON.stringify(exit.tail).includes(secret));
  assert.ok(!fs.readFileSync(exit.logFile.replace(/\.log$/, '.proc.json'), 'utf8').includes(secret));
});

test('the framer: lines, partial flushes, long lines, multi-byte characters cut between reads', () => {
  const framer = new LineFramer(new Redactor(['s3cret']), 8);
  assert.deepEqual(framer.push(Buffer.from('one\r\ntwo\nthr')), [
    { text: 'one', eol: true },
    { text: 'two', eol: true },
  ]);
  assert.deepEqual(framer.flushPartial(), [{ text: 'thr', eol: false }]);
  assert.deepEqual(framer.push(Buffer.from('ee s3c')), []);
  assert.deepEqual(
    framer.flushPartial(),
    [{ text: 'ee ', eol: false }],
    's3c could still become the secret: held back',
  );
  assert.deepEqual(framer.push(Buffer.from('ret!\n')), [{ text: `${redactionMark}!`, eol: true }]);
  assert.deepEqual(
    framer.push(Buffer.from('abcdefghijkl')),
    [{ text: 'abcdefgh', eol: false }],
    'a line longer than the maximum is cut',
  );
  const euro = Buffer.from('€\n');
  assert.deepEqual(framer.push(euro.subarray(0, 1)), []);
  assert.deepEqual(framer.push(euro.subarray(1)), [{ text: 'ijkl€', eol: true }]);
  assert.deepEqual(framer.push(Buffer.from('last')), []);
  assert.deepEqual(framer.end(), [{ text: 'last', eol: false }]);
});

test('redaction: longest secret first, a secret spanning lines, nothing to do without secrets', () => {
  const redactor = new Redactor(['abc', 'abcdef', '']);
  assert.equal(redactor.redact('x abcdef y abc'), `x ${redactionMark} y ${redactionMark}`);
  assert.equal(redactor.heldBack('...abcde'), 5);
  assert.equal(redactor.heldBack('...xyz'), 0);
  const framer = new LineFramer(new Redactor(['line1\nline2']));
  assert.deepEqual(framer.push(Buffer.from('a line1\n')), [], 'the newline may belong to the secret');
  assert.deepEqual(framer.push(Buffer.from('line2 b\n')), [{ text: `a ${redactionMark} b`, eol: true }]);
  assert.ok(new Redactor([]).empty);
});

test('redaction: a secret printed URL-encoded, JSON-escaped or in base64 is redacted too, even split across reads', () => {
  const secret = 'tok/en+"pa ss"=42';
  const redactor = new Redactor([secret]);
  const forms = [
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    Buffer.from(secret).toString('base64'),
    Buffer.from(secret).toString('base64url'),
  ];
  for (const form of forms) {
    assert.notEqual(form, secret);
    assert.equal(redactor.redact(`a=${form};`), `a=${redactionMark};`, form);
  }
  const header = `Authorization: Basic ${Buffer.from(secret).toString('base64')}\n`;
  const framer = new LineFramer(redactor);
  const cut = header.length - 9;
  assert.deepEqual(
    [...framer.push(Buffer.from(header.slice(0, cut))), ...framer.push(Buffer.from(header.slice(cut)))],
    [{ text: `Authorization: Basic ${redactionMark}`, eol: true }],
  );
  assert.equal(
    new Redactor(['abc']).redact('YWJj abc'),
    `YWJj ${redactionMark}`,
    'encodings shorter than 8 characters are ordinary text',
  );
});

test('the log is readable while it grows: offsets, tail, and a follower that sees each line once', async () => {
  const proc = await supervisor().start(childSpec('ticks', ['12', '60']));
  const logFile = proc.record.logFile;
  const followed: LogEntry[] = [];
  const follower = followLog(logFile, (entries) => followed.push(...entries), { intervalMs: 30 });
  let slice = await readLog(logFile);
  for (let i = 0; i < 200 && !slice.entries.some((e) => e.message === 'tick 3'); i++) {
    await new Promise((r) => setTimeout(r, 20));
    slice = await readLog(logFile);
  }
  const running = await tailLog(logFile, 2);
  assert.ok(
    slice.entries.some((e) => e.message === 'tick 3'),
    'read while running',
  );
  assert.equal(running.length, 2);
  const exit = await proc.exited;
  assert.ok(exit.durationMs > 0);
  const rest = await readLog(logFile, { offset: slice.nextOffset });
  const all = [...slice.entries, ...rest.entries];
  assert.deepEqual(
    all.map((e) => e.seq),
    all.map((_, i) => i + 1),
    'reading on from nextOffset loses and repeats nothing',
  );
  assert.deepEqual(
    all.filter((e) => e.stream === 'stdout').map((e) => e.message),
    Array.from({ length: 12 }, (_, i) => `tick ${i + 1}`),
  );
  assert.equal(rest.nextOffset, fs.statSync(logFile).size);
  assert.deepEqual((await tailLog(logFile, 3)).map((e) => e.message).slice(0, 2), ['tick 11', 'tick 12']);
  await waitFor(() => followed.length === all.length);
  follower.dispose();
  assert.deepEqual(
    followed.map((e) => e.seq),
    all.map((e) => e.seq),
  );
  assert.deepEqual(await readLog('/no/such.log'), { entries: [], nextOffset: 0, size: 0 });
});

test('reads stop at the last complete line: a half-written entry is left for the next read', async () => {
  const spec = childSpec('exit', ['0']);
  const exit = await (await supervisor().start(spec)).exited;
  const whole = (await readLog(exit.logFile)).entries.length;
  fs.appendFileSync(exit.logFile, '{"seq":99,"ts":1,"stream":"stdout","mess');
  const slice = await readLog(exit.logFile);
  assert.equal(slice.entries.length, whole);
  assert.ok(slice.nextOffset < slice.size);
  fs.appendFileSync(exit.logFile, 'age":"late"}\n');
  const next = await readLog(exit.logFile, { offset: slice.nextOffset });
  assert.deepEqual(
    next.entries.map((e) => e.message),
    ['late'],
  );
});

async function waitFor(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

test('redaction: a long secret printed in hex, reversed, or split in halves (on two lines) is redacted too', () => {
  const ticket = 'Zq81xT0kP3m9vLr2YwB7nC5dF6gH4jK1sA0eU8iO2pQ';
  const redactor = new Redactor([ticket]);
  const hex = Buffer.from(ticket).toString('hex');
  const echoes = [hex, hex.toUpperCase(), [...ticket].reverse().join(''), ticket.slice(0, 22), ticket.slice(22)];
  for (const echo of echoes) assert.doesNotMatch(redactor.redact(`echo: ${echo}`), /[A-Za-z0-9]{16,}/, echo);
  assert.equal(redactor.redact('an ordinary line of output'), 'an ordinary line of output');
  assert.equal(
    new Redactor(['short passkey']).redact('a short line'),
    'a short line',
    'a short secret is not cut into pieces (common words stay)',
  );
});
