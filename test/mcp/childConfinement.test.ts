/**
 * A child runtime is an agent process the ledger supervises, not a shell for whoever holds an MCP
 * connection: its program comes from the agent definitions committed in the repository or from
 * the person's allow-list (`--child-program`), its environment is built (an allow-list plus what
 * the ledger adds, never the server's whole environment), its folder stays inside the workspace,
 * and it dies with its server — even a server killed with SIGKILL.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { alive, until } from '../helpers/processes';
import { git, tempRepo, writeFiles } from '../helpers/tmp';

interface Child {
  child_id: string;
  runtime_status: { state: string; pid: number | null; owner_pid: number };
}

const node = process.execPath;
const allowNode = ['--enable-orchestrator', '--child-program', node];

async function output(c: LedgerClient, childId: string, prefix: string): Promise<string> {
  return until(`${childId} to print ${prefix}`, async () => {
    const { logs } = await c.call<{ logs: { message: string }[] }>('child_logs', {
      child_id: childId,
      wait_ms: 1000,
      limit: 200,
    });
    return logs.map((l) => l.message).find((m) => m.startsWith(prefix));
  });
}

test('child_create refuses a shell, a program nobody allowed, a loader variable and a folder outside; nothing runs or is recorded', async () => {
  const repo = tempRepo();
  const c = await connect(repo, allowNode);
  try {
    const pwned = path.join(repo, 'pwned');
    const shell = await c.fail('child_create', { child_id: 'sh', command: '/bin/sh', args: ['-c', `touch ${pwned}`] });
    assert.equal(shell.reason, 'ConfigError');
    assert.equal(shell.data?.error, 'E-CHILD-PROGRAM');
    assert.match(shell.message, /\/bin\/sh is not a program this workspace allows/);
    assert.deepEqual(shell.data?.allowed, [node], 'the refusal says what is allowed');
    const bare = await c.fail('child_create', { child_id: 'env', command: 'env', args: ['touch', pwned] });
    assert.equal(bare.data?.error, 'E-CHILD-PROGRAM');
    const preload = await c.fail('child_create', {
      child_id: 'preload',
      command: node,
      args: ['-e', `require('fs').writeFileSync(${JSON.stringify(pwned)}, 'x')`],
      env: { LD_PRELOAD: '/tmp/evil.so' },
    });
    assert.equal(preload.reason, 'ValidationError');
    assert.equal(preload.data?.error, 'E-CHILD-ENV');
    assert.equal(preload.data?.variable, 'LD_PRELOAD');
    for (const variable of [
      'PATH',
      'NODE_OPTIONS',
      'DYLD_INSERT_LIBRARIES',
      'BASH_ENV',
      'HOME',
      'AGENT_LEDGER_LAUNCH_TICKET',
    ])
      assert.equal(
        (await c.fail('child_create', { command: node, env: { [variable]: 'x' } })).data?.variable,
        variable,
        `${variable} is refused`,
      );
    for (const cwd of ['/tmp', '../', path.dirname(repo)]) {
      const outside = await c.fail('child_create', { command: node, args: ['-e', '1'], cwd });
      assert.equal(outside.data?.reason, 'pathOutsideWorkspace', `${cwd}: ${outside.message}`);
    }
    assert.equal(fs.existsSync(pwned), false, 'nothing ran');
    assert.deepEqual((await c.call<{ children: Child[] }>('child_list', {})).children, [], 'nothing was recorded');
  } finally {
    await c.close();
  }
});

test('a program declared by an agent definition is allowed once the definition is committed', async () => {
  const repo = tempRepo();
  writeFiles(repo, {
    '.agent-ledger/agents/local.yaml': `name: local\nclient: codex\nlaunch:\n  command: [${JSON.stringify(node)}, "{prompt}"]\n`,
    '.agent-ledger/agents/gem.yaml': 'name: gem\nclient: gemini-cli\n',
  });
  const c = await connect(repo, ['--enable-orchestrator']);
  try {
    const uncommitted = await c.fail('child_create', { child_id: 'a', command: node, args: ['-e', '1'] });
    assert.equal(uncommitted.data?.error, 'E-CHILD-PROGRAM', 'an uncommitted definition allows nothing');
    assert.match(uncommitted.message, /commit it|--child-program/);
    git(repo, 'add', '.agent-ledger/agents/local.yaml', '.agent-ledger/agents/gem.yaml');
    git(repo, 'commit', '-qm', 'agent');
    const ok = await c.call<Child>('child_create', { child_id: 'b', command: node, args: ['-e', 'console.log("hi")'] });
    assert.notEqual(ok.runtime_status.state, 'failed');
    assert.equal(await output(c, 'b', 'hi'), 'hi');
    // A committed definition without a launch command allows its client's program (gemini here,
    // not on this PATH: refused for that, not by the list); one with a command allows only that.
    assert.equal((await c.fail('child_create', { command: 'gemini' })).data?.reason, 'programNotFound');
    assert.equal((await c.fail('child_create', { command: 'codex' })).data?.error, 'E-CHILD-PROGRAM');
    // Changed and not committed again: the change allows nothing new.
    fs.appendFileSync(path.join(repo, '.agent-ledger/agents/local.yaml'), 'description: edited\n');
    assert.equal((await c.fail('child_create', { command: node, args: ['-e', '1'] })).data?.error, 'E-CHILD-PROGRAM');
  } finally {
    await c.close();
  }
});

test('a child’s environment is built: the allow-list and what the ledger adds, never the server’s whole environment', async () => {
  const repo = tempRepo();
  const env = {
    ...process.env,
    SERVER_ONLY_SECRET: 'do-not-pass',
    AGENT_LEDGER_LAUNCH_TICKET: 'ticket-do-not-pass',
    PERSON_ALLOWED: 'yes',
    LANG: 'C.UTF-8',
  };
  const c = await connect(repo, [...allowNode, '--child-env', 'PERSON_ALLOWED'], { env });
  try {
    await c.call('child_create', {
      child_id: 'envs',
      command: node,
      args: ['-e', 'console.log("env:" + Object.keys(process.env).sort().join(","))'],
      env: { MY_SETTING: '1' },
    });
    const keys = (await output(c, 'envs', 'env:')).slice(4).split(',');
    for (const k of ['PATH', 'HOME', 'LANG', 'PERSON_ALLOWED', 'MY_SETTING'])
      assert.ok(keys.includes(k), `${k} passes`);
    for (const k of ['SERVER_ONLY_SECRET', 'AGENT_LEDGER_LAUNCH_TICKET', 'NODE_TEST_CONTEXT'])
      assert.ok(!keys.includes(k), `${k} does not pass`);
  } finally {
    await c.close();
  }
});

test('kill -9 of the server: its children (and what they started in their group) end, well within their wall clock', async () => {
  const repo = tempRepo();
  const c = await connect(repo, allowNode);
  const pids: number[] = [];
  let server = 0;
  try {
    for (const id of ['k1', 'k2', 'k3']) {
      // Each starts a grandchild in its own process group, then ignores SIGTERM: only SIGKILL ends it.
      const child = await c.call<Child>('child_create', {
        child_id: id,
        command: node,
        args: [
          '-e',
          `const g = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
           process.on('SIGTERM', () => {});
           console.log('grandchild:' + g.pid);
           setInterval(() => {}, 1000);`,
        ],
        // Long enough that none ends by its wall clock before the kill, on a loaded machine too.
        limits: { wallclock_ms: 30_000 },
      });
      server = child.runtime_status.owner_pid;
      pids.push(Number((await output(c, id, 'grandchild:')).slice('grandchild:'.length)));
      pids.push(child.runtime_status.pid!);
    }
    assert.ok(pids.every(alive), 'everything runs');
    process.kill(server, 'SIGKILL');
    const killedAt = Date.now();
    await until('the children to end', () => pids.every((p) => !alive(p)), 15_000);
    assert.ok(
      Date.now() - killedAt < 15_000,
      `ended ${Date.now() - killedAt} ms after the server, not by their 30 s wall clock`,
    );
  } finally {
    for (const p of pids) if (alive(p)) process.kill(p, 'SIGKILL');
    await c.close().catch(() => undefined);
  }
});
