import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { cliPath, connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { cli, cliError, cliJson } from '../helpers/cli';
import type { CliResult } from '../helpers/cli';
import { ledgerEnv } from '../helpers/testLedger';
import { tempDir, tempRepo } from '../helpers/tmp';
import { orchestratorFamily } from '../../src/mcp/tools/orchestrator/index';
import { blackboardGroup, eventsGroup, graphGroup, resourcesGroup } from '../../src/cli/commands/coordinationCommands';
import { contractNetGroup, knowledgeGroup, stigmergyGroup } from '../../src/cli/commands/schedulingCommands';
import { childGroup } from '../../src/cli/commands/childCommands';
import { alive } from '../helpers/processes';

const groups = [
  blackboardGroup,
  graphGroup,
  resourcesGroup,
  eventsGroup,
  stigmergyGroup,
  contractNetGroup,
  knowledgeGroup,
  childGroup,
];
const readme = fs.readFileSync(path.resolve(__dirname, '../../docs/mcp-tools.md'), 'utf8');

/** The runnable block of the "From the command line" section (docs/mcp-tools.md, linked from the README). */
function readmeBlock(): string {
  const m =
    /#### From the command line\n[\s\S]*?<!-- readme-example: run in a new Git repository -->\n```sh\n([\s\S]*?)\n```/.exec(
      readme,
    );
  assert.ok(m, 'README has a runnable block under "From the command line"');
  return m[1];
}

/** The CLI started without waiting for it (to interrupt it, or to write while it waits); `--workspace` goes first, before any `--`. */
function cliAsync(
  args: string[],
  workspace: string,
): { pid: number; done: Promise<CliResult & { ms: number }>; signal(s: NodeJS.Signals): void } {
  const started = Date.now();
  const child = spawn(process.execPath, [cliPath, '--workspace', workspace, ...args], {
    env: { ...ledgerEnv(workspace), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<CliResult & { ms: number }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started })),
  );
  return { pid: child.pid ?? 0, done, signal: (s) => child.kill(s) };
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

type ChildJson = { child_id: string; runtime_status: { state: string; pid: number | null; stopped: boolean } };

describe('the orchestrator tools from the command line', () => {
  test('every orchestrator tool has exactly one command, and --help lists the groups and their commands', () => {
    // Running a plan is its own command group (`agent-ledger plan`, with the gate a person approves):
    // each of its tools is named in `plan --help` or `plan run --help`.
    const planHelp = `${cli(['plan', '--help']).stdout}\n${cli(['plan', 'run', '--help']).stdout}`;
    const planTools = [...new Set(planHelp.match(/\b(plan_[a-z_]+|op_cancel)\b/g) ?? [])];
    assert.ok(planTools.includes('plan_run_bt') && planTools.includes('op_cancel'), planHelp);
    const commanded = [...groups.flatMap((g) => g.commands.map((c) => c.tool)), ...planTools].sort();
    assert.deepEqual(commanded, orchestratorFamily.tools.map((t) => t.name).sort());
    const top = cli(['--help']);
    assert.equal(top.code, 0, top.stderr);
    for (const g of groups) assert.match(top.stdout, new RegExp(`^  ${g.name} `, 'm'), `--help lists ${g.name}`);
    for (const g of groups) {
      const help = cli([g.name, '--help']);
      assert.equal(help.code, 0, help.stderr);
      for (const c of g.commands) {
        assert.match(help.stdout, new RegExp(`^  ${c.name} `, 'm'), `${g.name} --help lists ${c.name}`);
        assert.ok(help.stdout.includes(`(${c.tool})`), `${g.name} --help names ${c.tool}`);
      }
    }
  });

  test('the README example of every group works when pasted in a new repository', () => {
    const block = readmeBlock();
    for (const g of groups)
      assert.match(block, new RegExp(`^agent-ledger ${g.name} `, 'm'), `the README shows ${g.name}`);
    const bin = tempDir('agent-ledger-bin-');
    fs.writeFileSync(path.join(bin, 'agent-ledger'), `#!/bin/sh\nexec "${process.execPath}" "${cliPath}" "$@"\n`, {
      mode: 0o755,
    });
    const repo = tempRepo();
    const r = spawnSync('bash', ['-e', '-c', block], {
      cwd: repo,
      encoding: 'utf8',
      timeout: 240_000,
      env: { ...ledgerEnv(repo), PATH: `${bin}${path.delimiter}${process.env.PATH}`, NO_COLOR: '1' },
    });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    const expected: [string, RegExp][] = [
      ['bb', /^plan\/status = \{"phase":"build"\}  v1 \[team\]$/m],
      ['bb watch', /^v1  set     plan\/status/m],
      ['graph batch-mutate', /^plan v0 → v1$/m],
      ['graph patch', /^  build \(status: "?done"?\)$/m],
      ['graph diff', /path: \/nodes\/build\/attributes\/status/],
      ['graph lock', /on plan held by alice until/],
      ['resources', /^sc:\/\/graphs\/plan@v2 +graph_version$/m],
      ['events', /GRAPH\.COMMITTED/],
      ['stig', /^src\/parser\.ts write 2 \(area total 2\)$/m],
      ['cnp', /for task-1: open/],
      ['kg', /^kg-1 +release +includes +changelog/m],
      ['child', /^hello from a child$/m],
      ['child end', /^child hello exited: exit code 0$/m],
    ];
    for (const [what, pattern] of expected) assert.match(r.stdout, pattern, what);
  });

  describe('against a running MCP server on the same ledger', () => {
    let repo: string;
    let server: LedgerClient;
    before(async () => {
      repo = tempRepo();
      server = await connect(repo, ['--enable-orchestrator', '--child-program', process.execPath]);
      await server.call('bb_set', { key: 'team:plan', value: { step: 1 }, tags: ['team'] });
      await server.call('graph_batch_mutate', { graph_id: 'g', operations: [{ op: 'add_node', node: { id: 'a' } }] });
      await server.call('graph_batch_mutate', { graph_id: 'g', operations: [{ op: 'add_node', node: { id: 'b' } }] });
      await server.call('kg_insert', { triples: [{ subject: 's', predicate: 'p', object: 'o' }] });
    });
    after(() => server.close());

    test('--json prints exactly what the tool returns', async () => {
      const same: [string[], string, Record<string, unknown>][] = [
        [['bb', 'get', 'team:plan', '--op-id', 'op-1'], 'bb_get', { key: 'team:plan', op_id: 'op-1' }],
        [['bb', 'query', '--tags', 'team', '--op-id', 'op-1'], 'bb_query', { tags: ['team'], op_id: 'op-1' }],
        [['bb', 'watch', '--wait-ms', '0', '--op-id', 'op-1'], 'bb_watch', { wait_ms: 0, op_id: 'op-1' }],
        [
          ['graph', 'diff', 'g', 'v1', 'latest', '--op-id', 'op-1'],
          'graph_diff',
          { graph_id: 'g', from: { version: 1 }, to: { latest: true }, op_id: 'op-1' },
        ],
        [['resources', 'list', '--prefix', 'sc://graphs/'], 'resources_list', { prefix: 'sc://graphs/' }],
        [['resources', 'read', 'sc://graphs/g@v1'], 'resources_read', { uri: 'sc://graphs/g@v1' }],
        [
          ['events', 'subscribe', '--wait-ms', '0', '--cats', 'graph'],
          'events_subscribe',
          { wait_ms: 0, cats: ['graph'] },
        ],
        [['kg', 'query', '--subject', 's'], 'kg_query', { subject: 's' }],
        [['kg', 'export'], 'kg_export', {}],
      ];
      for (const [argv, tool, args] of same) {
        assert.deepEqual(
          cliJson([...argv, '--workspace', repo]),
          await server.call(tool, args),
          `agent-ledger ${argv.join(' ')} = ${tool}`,
        );
      }
    });

    test('ledger text reaches the terminal inert, and exact with --json', () => {
      const evil = 'x\x1b]0;pwned\x07\x1b[2J\nline2';
      assert.equal(cli(['bb', 'set', 'evil', evil, '--workspace', repo]).code, 0);
      // Text shows each control character as its picture; JSON inside a line (event data) escapes it.
      const shown: [string[], RegExp][] = [
        [['bb', 'get', 'evil'], /␛\]0;pwned␇␛\[2J⏎line2/],
        [['bb', 'query'], /␛\]0;pwned␇␛\[2J⏎line2/],
        [['events', 'subscribe', '--wait-ms', '0', '--kinds', 'blackboard.set'], /"value":"x\\u001b\]0;pwned\\u0007/],
      ];
      for (const [argv, pattern] of shown) {
        const r = cli([...argv, '--workspace', repo]);
        assert.equal(r.code, 0, r.stderr);
        assert.doesNotMatch(
          r.stdout,
          /[\x00-\x08\x0b-\x1f\x7f]/,
          `${argv.join(' ')}: no control character reaches the terminal`,
        );
        assert.match(r.stdout, pattern, argv.join(' '));
      }
      assert.equal(
        cliJson<{ entry: { value: unknown } }>(['bb', 'get', 'evil', '--workspace', repo]).entry.value,
        evil,
      );
    });

    test('a waiting command returns the moment another process writes, and by --wait-ms when nothing comes', async () => {
      const { next_version } = cliJson<{ next_version: number }>([
        'bb',
        'watch',
        '--wait-ms',
        '0',
        '--limit',
        '200',
        '--workspace',
        repo,
      ]);
      const idle = cliAsync(
        ['bb', 'watch', '--start-version', String(next_version), '--wait-ms', '700', '--json'],
        repo,
      );
      const quiet = await idle.done;
      assert.equal(quiet.code, 0, quiet.stderr);
      assert.deepEqual((JSON.parse(quiet.stdout) as { events: unknown[] }).events, []);
      assert.ok(quiet.ms >= 700, `returned after ${quiet.ms} ms, before its wait`);

      const watching = cliAsync(
        ['bb', 'watch', '--start-version', String(next_version), '--wait-ms', '45000', '--json'],
        repo,
      );
      await new Promise((r) => setTimeout(r, 1500)); // it is waiting by now (or starting: either way the write is after next_version)
      const written = Date.now();
      await server.call('bb_set', { key: 'wake', value: 'up' });
      const woke = await watching.done;
      assert.equal(woke.code, 0, woke.stderr);
      const events = (JSON.parse(woke.stdout) as { events: { key: string }[] }).events;
      assert.deepEqual(
        events.map((e) => e.key),
        ['wake'],
      );
      assert.ok(Date.now() - written < 20_000, 'woken by the write, long before its 45 s wait');
    });

    test('a child started by another process: listed, refused the same way to the CLI and to another server, stopped from the CLI', async () => {
      await server.call('child_create', {
        child_id: 'srv',
        command: process.execPath,
        args: ['-e', 'setInterval(() => {}, 1000)'],
      });
      const listed = cliJson<{ children: ChildJson[] }>(['child', 'list', '--workspace', repo]).children.find(
        (c) => c.child_id === 'srv',
      );
      assert.equal(listed?.runtime_status.state, 'running');
      const r = cli(['child', 'send', 'srv', 'hello', '--workspace', repo, '--json']);
      assert.equal(r.code, 6, r.stderr);
      const other = await connect(repo, ['--enable-orchestrator']);
      try {
        const viaMcp = await other.fail('child_send', { child_id: 'srv', payload: 'hello' });
        const viaCli = cliError(r);
        assert.deepEqual(
          { code: viaCli.code, reason: viaCli.reason, message: viaCli.message, error: viaCli.data?.error },
          { code: viaMcp.code, reason: viaMcp.reason, message: viaMcp.message, error: 'E-CHILD-REMOTE' },
        );
      } finally {
        await other.close();
      }
      const killed = cliJson<ChildJson>(['child', 'kill', 'srv', '--grace-ms', '500', '--workspace', repo]);
      assert.equal(killed.runtime_status.state, 'exited');
      assert.equal(killed.runtime_status.stopped, true);
      assert.equal(alive(listed.runtime_status.pid ?? 0), false, 'the process is gone');
    });

    test('child create runs its child in the foreground; Ctrl-C stops it and its end is recorded', async () => {
      const fg = cliAsync(
        [
          'child',
          'create',
          '--child-program',
          process.execPath,
          '--child-id',
          'fg',
          '--',
          process.execPath,
          '-e',
          'console.log("ready"); setInterval(() => {}, 1000)',
        ],
        repo,
      );
      const running = await until('the foreground child to print', () => {
        const c = cliJson<{ children: ChildJson[] }>(['child', 'list', '--workspace', repo]).children.find(
          (x) => x.child_id === 'fg',
        );
        const logs = c
          ? cliJson<{ logs: { message: string }[] }>(['child', 'logs', 'fg', '--wait-ms', '0', '--workspace', repo])
              .logs
          : [];
        // Listed `starting` until its pid is recorded (the child can print before that): `running` always comes with its pid.
        if (c?.runtime_status.state === 'running')
          assert.ok(c.runtime_status.pid, 'a running child is listed with its pid');
        return c?.runtime_status.state === 'running' && logs.some((l) => l.message === 'ready') ? c : undefined;
      });
      fg.signal('SIGINT');
      const ended = await fg.done;
      assert.equal(ended.code, 0, ended.stderr);
      assert.match(ended.stdout, /^ready$/m, 'the child’s output was followed');
      assert.match(ended.stdout, /^child fg exited: ended by SIG(TERM|KILL)$/m);
      const status = cliJson<ChildJson>(['child', 'status', 'fg', '--workspace', repo]);
      assert.equal(status.runtime_status.state, 'exited');
      assert.equal(status.runtime_status.stopped, true, 'stopped through child_kill, so recorded as stopped');
      assert.equal(alive(running.runtime_status.pid!), false);
    });
  });
});
