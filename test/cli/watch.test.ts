// `agent-ledger watch` as a person (or Claude Code's Monitor tool) runs it: started before the
// ledger exists, it prints one line per event written by other processes, within a moment of
// the write; filters; renders agent text inert; and ends cleanly when its reader goes away.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliPath, connect } from '../helpers/mcpClient';
import { ledgerEnv } from '../helpers/testLedger';
import { tempRepo } from '../helpers/tmp';

/** A running `agent-ledger watch`, its stdout split into lines as they come. */
function startWatch(workspace: string, args: string[]) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [cliPath, 'watch', '--workspace', workspace, ...args],
    { env: { ...ledgerEnv(workspace), NO_COLOR: '1' } },
  );
  const lines: { text: string; at: number }[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    buffer += d.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      lines.push({ text: buffer.slice(0, nl), at: performance.now() });
      buffer = buffer.slice(nl + 1);
    }
    waiters.splice(0).forEach((w) => w());
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    lines,
    stderr: () => stderr,
    exited,
    /** Resolves with the first line at or after `from` that matches, or rejects after `ms`. */
    async next(match: (line: string) => boolean, from: number, ms = 15_000): Promise<{ text: string; at: number }> {
      const deadline = performance.now() + ms;
      for (;;) {
        const found = lines.slice(from).find((l) => match(l.text));
        if (found) return found;
        if (performance.now() > deadline)
          throw new Error(`no matching line within ${ms} ms; lines: ${JSON.stringify(lines)}; stderr: ${stderr}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
    },
    stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

test('watch follows a new ledger from other processes: a line within a moment of each write, filters, --json', async (t) => {
  const repo = tempRepo({ 'README.md': '# app\n', 'src/app.ts': 'export const a = 1;\n' });
  assert.equal(fs.existsSync(path.join(repo, '.agent-ledger')), false, 'no ledger yet');
  const all = startWatch(repo, ['--json', '--history', '1']);
  const completed = startWatch(repo, ['--kind', 'task.completed', '--history', '1']);
  const agent = await connect(repo);
  try {
    // The first write shows whether the watches were already following (then as a new event) or not yet (then as history).
    await agent.call('task_create', { title: 'Warm-up', assignee: 'coder' });
    await all.next((l) => l.includes('Warm-up'), 0);
    assert.equal(fs.existsSync(path.join(repo, '.agent-ledger', 'ledger.db.lock')), false);

    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const from = all.lines.length;
      const before = performance.now();
      await agent.call('task_create', { title: `Queued ${i}`, assignee: 'coder' });
      const line = await all.next((l) => l.includes(`Queued ${i}`), from);
      latencies.push(line.at - before);
      const item = JSON.parse(line.text) as Record<string, unknown>;
      assert.equal(item.kind, 'task.queued');
      assert.equal(item.agent, 'coder');
      assert.equal(item.text, 'queued for coder');
    }
    t.diagnostic(
      `write → line (ms, task_create from another process): ${latencies.map((l) => l.toFixed(0)).join(', ')}`,
    );
    // A generous bound for a loaded CI machine; bench/watch.bench.ts measures it.
    assert.ok(Math.max(...latencies) < 3000, `latencies ${latencies.join(', ')}`);

    // An agent's journey: started, a file changed, completed with its files count.
    const from = all.lines.length;
    const { workflow_id } = await agent.call<{ workflow_id: string }>('start_workflow', { name: 'Checkout' });
    const { task_id } = await agent.call<{ task_id: string }>('start_task', {
      workflow_id,
      name: 'Evil \u001b]0;pwned\u0007 title',
      goal: 'g',
    });
    fs.writeFileSync(path.join(repo, 'src/app.ts'), 'export const a = 2;\n');
    await agent.call('complete_task', { task_id, status: 'success', outcome: { summary: 'done' } });
    const done = JSON.parse((await all.next((l) => l.includes('"task.completed"'), from)).text) as Record<
      string,
      unknown
    >;
    assert.equal(done.task, task_id);
    assert.equal(done.files, 1);
    assert.ok(all.lines.slice(from).some((l) => l.text.includes('"task.started"')));

    const text = await completed.next((l) => l.includes(task_id), 0);
    assert.match(text.text, /task\.completed\s+task-\d+\s+Evil ␛\]0;pwned␇ title — completed: success, 1 file changed/);
    assert.ok(!text.text.includes('\u001b'), 'the title reaches the terminal inert');
    assert.ok(
      completed.lines.every((l) => l.text.includes('task.completed')),
      `--kind task.completed shows only those: ${completed.lines.map((l) => l.text).join('\n')}`,
    );

    // --agent and --task: only that agent's, only that task's (history included).
    const warmUp = (JSON.parse((await all.next((l) => l.includes('Warm-up'), 0)).text) as { task: string }).task;
    for (const [args, keep] of [
      [['--agent', 'coder'], (l: Record<string, unknown>) => l.agent === 'coder'],
      [['--task', warmUp], (l: Record<string, unknown>) => l.task === warmUp],
    ] as const) {
      const filtered = startWatch(repo, ['--json', '--history', '50', ...args]);
      await filtered.next((l) => l.includes('Warm-up'), 0);
      const seen = filtered.lines.map((l) => JSON.parse(l.text) as Record<string, unknown>);
      assert.equal(await filtered.stop(), 0);
      assert.ok(seen.every(keep), `${args.join(' ')} shows only what it names: ${JSON.stringify(seen)}`);
      assert.ok(
        all.lines.some((l) => !keep(JSON.parse(l.text) as Record<string, unknown>)),
        `the unfiltered watch saw others than ${args.join(' ')} names`,
      );
    }

    for (const w of [all, completed]) {
      assert.equal(await w.stop(), 0, 'SIGTERM ends the watch cleanly');
      assert.equal(w.stderr(), '');
    }
  } finally {
    await agent.close();
    await Promise.all([all.stop(), completed.stop()]);
  }
});

test('watch | head -n 2: the watch ends cleanly once its reader is gone', async () => {
  const repo = tempRepo();
  const agent = await connect(repo);
  await agent.call('task_create', { title: 'Before' });
  const shell = spawn(
    'bash',
    [
      '-c',
      `"${process.execPath}" "${cliPath}" watch --workspace "${repo}" --history 1 | head -n 2; echo "watch exited \${PIPESTATUS[0]}"`,
    ],
    // Its own process group: a failing test stops the whole pipeline.
    { env: { ...ledgerEnv(repo), NO_COLOR: '1' }, detached: true },
  );
  try {
    let out = '';
    let err = '';
    shell.stdout.on('data', (d: Buffer) => (out += d.toString()));
    shell.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => shell.on('close', resolve));
    // Writes until the pipeline ends: two lines fill head, the next line meets the closed pipe.
    let ended = false;
    void exited.then(() => (ended = true));
    for (let i = 0; i < 40 && !ended; i++) {
      await agent.call('task_create', { title: `After ${i}` });
      await new Promise((r) => setTimeout(r, 150));
    }
    assert.equal(await exited, 0);
    const lines = out.trim().split('\n');
    assert.equal(lines.length, 3, out);
    // The watch may have started after a few writes (--history 1 shows the last): any two task lines.
    for (const line of lines.slice(0, 2)) assert.match(line, /task\.queued\s+task-\d+\s+(Before|After \d+) — queued/);
    assert.match(out, /watch exited 0/);
    assert.equal(err, '', 'no EPIPE, no stack trace');
  } finally {
    await agent.close();
    try {
      process.kill(-shell.pid!, 'SIGTERM');
    } catch {
      // already ended
    }
  }
});
