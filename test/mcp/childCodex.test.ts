import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient, ToolError } from '../helpers/mcpClient';
import { fakeAgents } from '../helpers/fakeAgents';
import type { FakeScript } from '../helpers/fakeAgents';
import { tempDir, tempRepo } from '../helpers/tmp';

/**
 * child_spawn_codex and child_batch_create against the scripted `codex` (test/fixtures/agents/bin,
 * the real `codex exec` flags) put first on the server's PATH, and injection: shell
 * metacharacters in a prompt, a role or arguments launch nothing but the intended program.
 */

interface Child {
  child_id: string;
  op_id: string;
  run_id: string | null;
  job_id: string | null;
  graph_id: string | null;
  node_id: string | null;
  runtime_status: { state: string; stopped: boolean; exit_code: number | null; error: string | null };
  manifest: { command: string; args: string[]; role: string | null; metadata: Record<string, unknown> };
  manifest_path: string;
  workdir: string;
  idempotent: boolean;
}

interface Batch {
  children: Child[];
  created: number;
  idempotent_entries: number;
  op_id: string;
  child_id: null;
  run_id: null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function ended(c: LedgerClient, childId: string): Promise<Child> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const s = await c.call<Child>('child_status', { child_id: childId });
    if (s.runtime_status.state !== 'running') return s;
    if (Date.now() > deadline) assert.fail(`${childId} did not end`);
    await sleep(100);
  }
}

/** A server whose environment puts the scripted CLIs first on PATH, playing `script`. */
async function serverWithFakes(
  repo: string,
  script: FakeScript,
): Promise<{ c: LedgerClient; fakes: ReturnType<typeof fakeAgents> }> {
  const fakes = fakeAgents();
  const saved = { ...process.env };
  Object.assign(process.env, fakes.env(script));
  try {
    // The fakes find their script through these variables: the person lets them through.
    const pass = ['--child-env', 'AGENT_LEDGER_FAKE_SCRIPT', '--child-env', 'AGENT_LEDGER_FAKE_RECORD'];
    return { c: await connect(repo, ['--enable-orchestrator', ...pass]), fakes };
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

const nasty = `done; touch PWNED_A && $(touch PWNED_B) \`touch PWNED_C\` | tee PWNED_D > PWNED_E 'q' "dq" \\ \n--sandbox=danger-full-access -c x=1`;

function noPwned(...dirs: string[]): void {
  for (const dir of dirs) {
    const found = fs.readdirSync(dir).filter((n) => n.startsWith('PWNED'));
    assert.deepEqual(found, [], `nothing was run by a shell in ${dir}`);
  }
}

test('child_spawn_codex runs `codex exec` with its real flags; the prompt and role stay one argument', async () => {
  const repo = tempRepo();
  fs.mkdirSync(path.join(repo, 'sub'));
  const { c, fakes } = await serverWithFakes(repo, {
    steps: [
      { call: 'bb_set', args: { key: 'from:codex-1', value: 'written by the codex child' } },
      { print: 'working' },
    ],
  });
  try {
    const role = `reviewer; rm -rf / $(id)`;
    const spawned = await c.call<Child>('child_spawn_codex', {
      child_id: 'codex-1',
      prompt: nasty,
      role,
      model_hint: 'gpt-5-codex',
      sandbox: 'read-only',
      cwd: 'sub',
      job_id: 'job-7',
      graph_id: 'g-1',
      node_id: 'n-1',
      child_id_hint: 'the reviewer',
    });
    assert.equal(spawned.child_id, 'codex-1');
    assert.equal(spawned.job_id, 'job-7');
    assert.equal(spawned.graph_id, 'g-1');
    assert.equal(spawned.node_id, 'n-1');
    assert.equal(spawned.run_id, null);
    assert.equal(spawned.workdir, 'sub');
    assert.equal(spawned.manifest.command, 'codex');
    assert.equal(spawned.manifest.metadata.child_id_hint, 'the reviewer');
    assert.equal(path.basename(spawned.manifest_path), 'codex.json');
    assert.ok(fs.existsSync(spawned.manifest_path));
    const done = await ended(c, 'codex-1');
    assert.equal(done.runtime_status.exit_code, 0);

    const [run] = fakes.runs();
    const expectedPrompt = `Your role: ${role}\n\n${nasty}`;
    assert.deepEqual(run.argv.slice(0, 6), [
      'exec',
      '--json',
      '--sandbox=read-only',
      `--cd=${path.join(repo, 'sub')}`,
      '--skip-git-repo-check',
      '--model=gpt-5-codex',
    ]);
    assert.deepEqual(run.argv.slice(-2), ['--', expectedPrompt], 'the prompt is one argument after --');
    assert.ok(
      run.argv.slice(6, -2).every((a, i) => (i % 2 === 0 ? a === '-c' : a.startsWith('mcp_servers.agent-ledger.'))),
      'only the ledger server overrides in between',
    );
    assert.deepEqual(
      run.mcpServers.map((m) => m.name),
      ['agent-ledger'],
    );
    // The child used this ledger's tools: what it wrote on the blackboard is read here.
    const written = await c.call<{ entry: { value: unknown } }>('bb_get', { key: 'from:codex-1' });
    assert.equal(written.entry.value, 'written by the codex child');
    assert.equal(run.prompt, expectedPrompt);
    assert.equal(run.cwd, path.join(repo, 'sub'));
    const logs = (
      await c.call<{ logs: { stream: string; message: string; parsed: unknown }[] }>('child_logs', {
        child_id: 'codex-1',
        wait_ms: 0,
      })
    ).logs;
    assert.ok(
      logs.some((l) => (l.parsed as { type?: string } | null)?.type === 'thread.started'),
      'the JSON events of codex --json come back parsed',
    );
    noPwned(repo, path.join(repo, 'sub'));
  } finally {
    await c.close();
  }
});

test('child_batch_create: all or nothing; an entry that cannot start refuses the batch before any starts', async () => {
  const repo = tempRepo();
  const { c, fakes } = await serverWithFakes(repo, { steps: [{ hang: true }] });
  try {
    const refused = await c.fail('child_batch_create', {
      entries: [
        { child_id: 'a', prompt: 'first', idempotency_key: 'batch-a', ledger_tools: false },
        { child_id: 'b', prompt: 'second', ledger_tools: false },
        { child_id: 'c', prompt: 'third', cwd: 'no-such-folder', ledger_tools: false },
        { child_id: 'd', prompt: 'never reached' },
      ],
    });
    assert.equal(refused.data?.error, 'E-BULK-PARTIAL');
    assert.equal(refused.data?.rolled_back, true);
    assert.deepEqual(refused.data?.rollback_child_ids, []);
    const [failure] = refused.data?.failures as { index: number; child_id: string; error: string; stage: string }[];
    assert.equal(failure.index, 2);
    assert.equal(failure.child_id, 'c');
    assert.equal(failure.error, 'cwdMissing');
    assert.equal(failure.stage, 'check');
    assert.match(refused.message, /entry 2 \(child c\) cannot start; nothing of the batch was started/);
    for (const id of ['a', 'b', 'c', 'd'])
      assert.equal((await c.fail('child_status', { child_id: id })).data?.error, 'E-CHILD-NOT-FOUND', id);
    assert.deepEqual(fakes.runs(), [], 'nothing was launched');
    const twice = await c.fail('child_batch_create', {
      entries: [
        { child_id: 'a', prompt: 'first', ledger_tools: false },
        { child_id: 'a', prompt: 'again', ledger_tools: false },
      ],
    });
    assert.equal((twice.data?.failures as { error: string }[])[0].error, 'E-CHILD-EXISTS');

    // A batch that can start starts every entry once; its replay starts nothing.
    const ok = await c.call<Batch>('child_batch_create', {
      entries: [
        { child_id: 'e', prompt: 'one', idempotency_key: 'batch-e', ledger_tools: false },
        { child_id: 'f', prompt: 'two', idempotency_key: 'batch-f', ledger_tools: false },
      ],
    });
    assert.equal(ok.created, 2);
    assert.equal(ok.idempotent_entries, 0);
    assert.equal(ok.child_id, null);
    assert.ok(ok.op_id.length > 0);
    assert.deepEqual(
      ok.children.map((x) => [x.child_id, x.runtime_status.state]),
      [
        ['e', 'running'],
        ['f', 'running'],
      ],
    );
    const replay = await c.call<Batch>('child_batch_create', {
      entries: [
        { child_id: 'e', prompt: 'one', idempotency_key: 'batch-e', ledger_tools: false },
        { child_id: 'f', prompt: 'two', idempotency_key: 'batch-f', ledger_tools: false },
      ],
    });
    assert.equal(replay.created, 0);
    assert.equal(replay.idempotent_entries, 2);
    const launchesOf = () => fakes.runs().filter((r) => r.prompt === 'one' || r.prompt === 'two').length;
    const deadline = Date.now() + 15_000;
    while (launchesOf() < 2 && Date.now() < deadline) await sleep(100);
    await sleep(500);
    assert.equal(launchesOf(), 2, 'e and f were launched once each: the replay launched nothing');
    const tooMany = await c.fail('child_batch_create', {
      entries: Array.from({ length: 17 }, (_, i) => ({ child_id: `x${i}`, prompt: 'p' })),
    });
    assert.equal((tooMany as ToolError).reason, 'ValidationError');
    for (const id of ['e', 'f'])
      assert.equal((await c.call<Child>('child_kill', { child_id: id, grace_ms: 200 })).runtime_status.stopped, true);
  } finally {
    await c.close();
  }
});

test('injection: metacharacters in arguments, role and environment reach the program verbatim and nothing else runs', async () => {
  const repo = tempRepo();
  const scratch = tempDir('agent-ledger-argv-');
  const out = path.join(scratch, 'argv.json');
  const script = path.join(scratch, 'argv.js');
  fs.writeFileSync(
    script,
    `require('node:fs').writeFileSync(process.argv[2], JSON.stringify({ argv: process.argv.slice(3), env: process.env.CHILD_NOTE }));`,
  );
  const c = await connect(repo, ['--enable-orchestrator', '--child-program', process.execPath]);
  try {
    const args = [
      out,
      '; touch PWNED_1',
      '$(touch PWNED_2)',
      '`touch PWNED_3`',
      '| touch PWNED_4',
      '&& touch PWNED_5',
      '> PWNED_6',
      '*',
      '~',
      '$HOME',
      'a b\tc\nd',
      '-e',
      '--inspect',
    ];
    const note = '$(touch PWNED_7); `touch PWNED_8`';
    await c.call<Child>('child_create', {
      child_id: 'argv',
      command: process.execPath,
      args: [script, ...args],
      role: 'x; touch PWNED_9',
      env: { CHILD_NOTE: note },
    });
    const done = await ended(c, 'argv');
    assert.equal(done.runtime_status.exit_code, 0);
    const seen = JSON.parse(fs.readFileSync(out, 'utf8')) as { argv: string[]; env: string };
    assert.deepEqual(seen.argv, args.slice(1));
    assert.equal(seen.env, note);
    noPwned(repo, scratch);
  } finally {
    await c.close();
  }
});
