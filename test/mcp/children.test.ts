import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { tempRepo } from '../helpers/tmp';

/**
 * Child runtimes of the orchestrator family (child_* tools), through the real SDK client over
 * stdio against dist/cli.js, with real child processes: create, send, logs read as they are
 * written, a second server process reading and stopping them, limits and idempotency.
 */

interface LogEntry {
  seq: number;
  stream: 'stdout' | 'stderr' | 'meta';
  message: string;
  childId: string;
  runId: string | null;
  opId: string | null;
  jobId: string | null;
  graphId: string | null;
  nodeId: string | null;
  raw: string | null;
  parsed: unknown;
}

interface Child {
  run_id: string | null;
  op_id: string;
  job_id: string | null;
  graph_id: string | null;
  node_id: string | null;
  child_id: string;
  runtime_status: {
    state: 'starting' | 'running' | 'exited' | 'failed' | 'lost';
    pid: number | null;
    exit_code: number | null;
    signal: string | null;
    limit: string | null;
    stopped: boolean;
    messages_sent: number;
    owner_pid: number;
    error: string | null;
  };
  manifest: {
    role: string | null;
    command: string;
    args: string[];
    limits: Record<string, number | null>;
    attached_at: number | null;
    run_id: string | null;
  };
  role: string | null;
  limits: Record<string, number | null>;
  attached_at: number | null;
  workdir: string;
  manifest_path: string;
  log_path: string;
  log_uri: string;
  idempotent?: boolean;
  idempotency_key?: string | null;
  sent_initial_payload?: boolean;
}

interface Logs {
  run_id: string | null;
  op_id: string;
  child_id: string;
  uri: string;
  logs: LogEntry[];
  next_seq: number;
  state: string;
}

const correlation = ['child_id', 'graph_id', 'job_id', 'node_id', 'op_id', 'run_id'];

/** An echo program: prints "ready", then "got:<line>" for every line of its input. */
const echo = `process.stdout.write('ready\\n'); require('node:readline').createInterface({ input: process.stdin }).on('line', (l) => process.stdout.write('got:' + l + '\\n'));`;

/** The tests' children run this node: a person allows it (`--child-program`). */
const allowNode = ['--enable-orchestrator', '--child-program', process.execPath];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function allLogs(c: LedgerClient, childId: string): Promise<LogEntry[]> {
  return (await c.call<Logs>('child_logs', { child_id: childId, wait_ms: 0, limit: 500 })).logs;
}

async function ended(c: LedgerClient, childId: string): Promise<Child> {
  return until(`${childId} to end`, async () => {
    const s = await c.call<Child>('child_status', { child_id: childId });
    return s.runtime_status.state === 'running' ? undefined : s;
  });
}

test('child_create, child_send, child_logs as written, and a second server process reading and stopping the child', async () => {
  const repo = tempRepo();
  const a = await connect(repo, allowNode);
  const b = await connect(repo, allowNode);
  try {
    const created = await a.call<Child>('child_create', {
      child_id: 'echo-1',
      command: process.execPath,
      args: ['-e', echo],
      role: 'echoer',
      limits: { messages: 2, cpu_percent: 50 },
      run_id: 'run-1',
      op_id: 'op-1',
      initial_payload: 'hello',
    });
    for (const k of correlation) assert.ok(k in created, `${k} is on the result`);
    assert.equal(created.child_id, 'echo-1');
    assert.equal(created.run_id, 'run-1');
    assert.equal(created.op_id, 'op-1');
    assert.equal(created.job_id, null);
    assert.equal(created.runtime_status.state, 'running');
    assert.ok(typeof created.runtime_status.pid === 'number' && created.runtime_status.pid > 0);
    assert.equal(created.role, 'echoer');
    assert.equal(created.workdir, '.');
    assert.equal(created.log_uri, 'sc://children/echo-1/logs');
    assert.equal(created.limits.messages, 2);
    assert.equal(created.limits.cpu_percent, 50);
    assert.ok(
      (created.limits.wallclock_ms ?? 0) > 0 && (created.limits.max_output_bytes ?? 0) > 0,
      'the enforced limits get defaults',
    );
    assert.equal(created.sent_initial_payload, true);
    assert.equal(created.runtime_status.messages_sent, 1);
    assert.equal(created.idempotent, false);
    const manifest = JSON.parse(fs.readFileSync(created.manifest_path, 'utf8')) as { role: string; run_id: string };
    assert.equal(manifest.role, 'echoer');
    assert.equal(manifest.run_id, 'run-1');

    const first = await until('the answer to the initial payload', async () => {
      const logs = await allLogs(a, 'echo-1');
      return logs.some((l) => l.message === 'got:hello') ? logs : undefined;
    });
    const line = first.find((l) => l.message === 'got:hello') as LogEntry;
    assert.equal(line.stream, 'stdout');
    assert.equal(line.raw, 'got:hello');
    assert.equal(line.childId, 'echo-1');
    assert.equal(line.runId, 'run-1');
    assert.equal(first[0].stream, 'meta', 'the supervisor notes the start');

    // A waiting read returns the moment the child writes: from the other process, while this one sends.
    const cursor = first[first.length - 1].seq;
    const t0 = Date.now();
    const waiting = b.call<Logs>('child_logs', { child_id: 'echo-1', from_seq: cursor, wait_ms: 20_000 });
    await sleep(300);
    const sent = await a.call<{
      child_id: string;
      sent_bytes: number;
      messages_sent: number;
      messages_limit: number | null;
      op_id: string;
      run_id: string | null;
    }>('child_send', {
      child_id: 'echo-1',
      payload: { n: 1 },
    });
    assert.equal(sent.messages_sent, 2);
    assert.equal(sent.messages_limit, 2);
    assert.equal(sent.sent_bytes, Buffer.byteLength('{"n":1}\n'));
    assert.equal(sent.run_id, 'run-1');
    const woke = await waiting;
    assert.ok(Date.now() - t0 < 15_000, 'the wait ended on the new line, not on its timeout');
    assert.deepEqual(
      woke.logs.map((l) => l.message),
      ['got:{"n":1}'],
    );
    assert.deepEqual(woke.logs[0].parsed, null, 'not JSON as printed');
    assert.equal(woke.next_seq, woke.logs[0].seq);
    assert.equal(woke.uri, 'sc://children/echo-1/logs');

    // The messages limit is enforced; input belongs to the process that started the child.
    const spent = await a.fail('child_send', { child_id: 'echo-1', payload: 'three' });
    assert.equal(spent.data?.error, 'E-CHILD-LIMIT');
    const remote = await b.fail('child_send', { child_id: 'echo-1', payload: 'x' });
    assert.equal(remote.data?.error, 'E-CHILD-REMOTE');

    // The other process lists it, reads its status and log resource, and changes its manifest.
    const listed = await b.call<{ children: Child[]; child_id: null; op_id: string }>('child_list', {});
    assert.deepEqual(
      listed.children.map((c) => c.child_id),
      ['echo-1'],
    );
    assert.equal(listed.children[0].runtime_status.state, 'running');
    assert.equal(listed.child_id, null);
    const resource = JSON.parse(
      ((await b.client.readResource({ uri: 'sc://children/echo-1/logs' })).contents[0] as { text: string }).text,
    ) as { childId: string; logs: LogEntry[] };
    assert.equal(resource.childId, 'echo-1');
    assert.ok(resource.logs.some((l) => l.message === 'got:{"n":1}'));
    const templates = (await b.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    assert.ok(templates.includes('sc://children/{id}/logs'));
    const role = await b.call<Child>('child_set_role', { child_id: 'echo-1', role: 'reviewer', op_id: 'op-2' });
    assert.equal(role.role, 'reviewer');
    assert.equal(role.op_id, 'op-2');
    const attached = await b.call<Child>('child_attach', { child_id: 'echo-1', run_id: 'run-2' });
    assert.ok(attached.attached_at !== null);
    assert.equal(attached.run_id, 'run-2');
    assert.equal(attached.manifest.attached_at, attached.attached_at);
    const remoteLimits = await b.fail('child_set_limits', { child_id: 'echo-1', limits: { wallclock_ms: 1000 } });
    assert.equal(remoteLimits.data?.error, 'E-CHILD-REMOTE');

    // Stopped from the other process (same machine): the pid is checked, the group signalled.
    const killed = await b.call<Child>('child_kill', { child_id: 'echo-1', grace_ms: 1000 });
    assert.equal(killed.runtime_status.state, 'exited');
    assert.equal(killed.runtime_status.stopped, true);
    assert.equal(killed.runtime_status.signal, 'SIGTERM');
    const after = await a.call<Child>('child_status', { child_id: 'echo-1' });
    assert.equal(after.runtime_status.state, 'exited');
    assert.equal(
      (await a.fail('child_send', { child_id: 'echo-1', payload: 'late' })).data?.error,
      'E-CHILD-NOT-RUNNING',
    );
    const last = (await allLogs(a, 'echo-1')).at(-1) as LogEntry;
    assert.equal(last.stream, 'meta');
    assert.match(last.message, /killed by SIGTERM/);

    // Ids are never reused; an idempotency key replays the first answer without starting again.
    assert.equal(
      (await a.fail('child_create', { child_id: 'echo-1', command: process.execPath, args: ['-e', ''] })).data?.error,
      'E-CHILD-EXISTS',
    );
    const once = await a.call<Child>('child_create', {
      command: process.execPath,
      args: ['-e', 'setTimeout(() => {}, 200)'],
      idempotency_key: 'k-1',
    });
    const twice = await b.call<Child>('child_create', {
      command: process.execPath,
      args: ['-e', 'setTimeout(() => {}, 200)'],
      idempotency_key: 'k-1',
    });
    assert.equal(twice.idempotent, true);
    assert.equal(twice.idempotency_key, 'k-1');
    assert.equal(twice.child_id, once.child_id);
    assert.equal(
      (await a.call<{ children: Child[] }>('child_list', {})).children.length,
      2,
      'the replay started nothing',
    );
    assert.equal((await a.fail('child_status', { child_id: 'nope' })).data?.error, 'E-CHILD-NOT-FOUND');
  } finally {
    await a.close();
    await b.close();
  }
});

test('limits: the wall clock ends a child, a shorter one set while it runs too, and the output cap cuts its log', async () => {
  const repo = tempRepo();
  const c = await connect(repo, allowNode);
  try {
    const forever = ['-e', 'setInterval(() => {}, 1000)'];
    const t0 = Date.now();
    await c.call<Child>('child_create', {
      child_id: 'slow',
      command: process.execPath,
      args: forever,
      limits: { wallclock_ms: 600 },
    });
    const slow = await ended(c, 'slow');
    assert.equal(slow.runtime_status.limit, 'wallClock');
    assert.equal(slow.runtime_status.signal, 'SIGTERM');
    assert.equal(slow.runtime_status.stopped, false);
    assert.ok(Date.now() - t0 >= 600);
    assert.ok(
      (await allLogs(c, 'slow')).some(
        (l) => l.stream === 'meta' && /wall-clock limit of 600 ms reached/.test(l.message),
      ),
    );

    await c.call<Child>('child_create', {
      child_id: 'shortened',
      command: process.execPath,
      args: forever,
      limits: { wallclock_ms: 60_000 },
    });
    const changed = await c.call<Child>('child_set_limits', { child_id: 'shortened', limits: { wallclock_ms: 300 } });
    assert.equal(changed.limits.wallclock_ms, 300);
    assert.equal(changed.limits.max_output_bytes, changed.manifest.limits.max_output_bytes);
    const shortened = await ended(c, 'shortened');
    assert.equal(shortened.runtime_status.limit, 'wallClock');
    assert.equal(
      (await c.fail('child_set_limits', { child_id: 'shortened', limits: { messages: 3 } })).data?.error,
      'E-CHILD-NOT-RUNNING',
    );

    const flood = `const line = 'x'.repeat(99) + '\\n'; setInterval(() => { for (let i = 0; i < 50; i++) process.stdout.write(line); }, 5);`;
    await c.call<Child>('child_create', {
      child_id: 'flood',
      command: process.execPath,
      args: ['-e', flood],
      limits: { max_output_bytes: 4000 },
    });
    const flooded = await ended(c, 'flood');
    assert.equal(flooded.runtime_status.limit, 'outputBytes');
    const logs = await allLogs(c, 'flood');
    const logged = logs.filter((l) => l.stream === 'stdout').reduce((n, l) => n + Buffer.byteLength(l.message) + 1, 0);
    assert.ok(logged <= 4000, `at most the budget is logged (${logged})`);
    assert.ok(logged >= 3000, `the log keeps what fit (${logged})`);
    assert.ok(logs.some((l) => l.stream === 'meta' && /output limit of 4000 bytes reached/.test(l.message)));
  } finally {
    await c.close();
  }
});

test('a refused child starts nothing: a shell line as command, a folder outside the workspace, an unknown program', async () => {
  const repo = tempRepo();
  const c = await connect(repo, [...allowNode, '--child-program', 'no-such-program-here']);
  try {
    const shell = await c.fail('child_create', { child_id: 'sh', command: 'node -e 1; touch pwned' });
    assert.equal(shell.reason, 'ValidationError');
    const outside = await c.fail('child_create', { child_id: 'out', command: process.execPath, cwd: '../' });
    assert.equal(outside.reason, 'ValidationError');
    const unknown = await c.fail('child_create', { child_id: 'unknown', command: 'no-such-program-here' });
    assert.equal(unknown.reason, 'ConfigError');
    assert.match(unknown.message, /not found on the PATH/);
    assert.equal((await c.fail('child_status', { child_id: 'unknown' })).data?.error, 'E-CHILD-NOT-FOUND');
    const states = (await c.call<{ children: Child[] }>('child_list', {})).children;
    assert.deepEqual(
      states,
      [],
      'a refused child is not recorded: not the shell line, the folder outside nor the unknown program',
    );
    assert.equal(fs.existsSync(path.join(repo, 'pwned')), false);
    const info = await c.call<{ safety: Record<string, unknown> }>('mcp_info');
    assert.equal(info.safety.maxChildren, 16, 'mcp_info states the running cap');
  } finally {
    await c.close();
  }
});

test('a server that closes stops the children it started and records how they ended', async () => {
  const repo = tempRepo();
  const a = await connect(repo, allowNode);
  const b = await connect(repo, allowNode);
  try {
    const child = await a
      .call<Child>('child_create', {
        child_id: 'orphan?',
        command: process.execPath,
        args: ['-e', 'setInterval(() => {}, 1000)'],
      })
      .catch(() => undefined);
    assert.equal(child, undefined, 'a "?" is not allowed in a child id');
    const started = await a.call<Child>('child_create', {
      child_id: 'left-behind',
      command: process.execPath,
      args: ['-e', 'setInterval(() => {}, 1000)'],
    });
    const pid = started.runtime_status.pid as number;
    await a.close();
    const gone = await until('the child to be stopped with its server', async () => {
      try {
        process.kill(pid, 0);
        return undefined;
      } catch {
        return true;
      }
    });
    assert.equal(gone, true);
    const seen = await until('its end to be recorded', async () => {
      const s = await b.call<Child>('child_status', { child_id: 'left-behind' });
      return s.runtime_status.state === 'running' ? undefined : s;
    });
    assert.equal(seen.runtime_status.state, 'exited');
    assert.equal(seen.runtime_status.stopped, true);
    assert.equal(seen.runtime_status.signal, 'SIGTERM');
  } finally {
    await b.close();
  }
});
