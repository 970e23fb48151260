import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ClientKind, McpServerLaunch } from '../../src/core/runtime/launch/clientLaunch';
import { buildLaunchPlan } from '../../src/core/runtime/launch/clients';
import { launchClient, readRunUsage } from '../../src/processes/launchClient';
import { ProcessSupervisor } from '../../src/processes/processSupervisor';
import { fakeAgents } from '../helpers/fakeAgents';
import { cliPath, connect } from '../helpers/mcpClient';
import { tempDir } from '../helpers/tmp';
import { ledgerEnv, testStore } from '../helpers/testLedger';

const passkey = 'pk_test_Zq81-secret-value';

/** This ledger's MCP server, as the runner will wire it: the passkey forwarded by name only. */
function ledgerServer(workspace: string): McpServerLaunch {
  // On `npm run test:pg` the workspace's database comes with --db, its password forwarded by name too.
  const db = testStore === 'postgres' ? ['--db', ledgerEnv(workspace).AGENT_LEDGER_DB!] : [];
  const forwardEnv =
    testStore === 'postgres' ? ['AGENT_LEDGER_PASSKEY', 'AGENT_LEDGER_DB_PASSWORD'] : ['AGENT_LEDGER_PASSKEY'];
  return {
    name: 'agent-ledger',
    command: process.execPath,
    args: [cliPath, 'mcp', 'serve', '--workspace', workspace, ...db],
    forwardEnv,
  };
}

const script = {
  steps: [
    { call: 'mcp_info' },
    {
      call: 'task_create',
      args: { title: { $prompt: 'task_title' }, description: { $result: [0, 'server.name'] as [number, string] } },
    },
    { call: 'task_update', args: { id: { $result: [1, 'id'] as [number, string] }, priority: 'high' } },
    // A careless agent prints what it found in its environment.
    { print: { $env: 'AGENT_LEDGER_PASSKEY' } },
  ],
  usage: { costUsd: 0.0421, inputTokens: 1200, outputTokens: 340, cacheReadTokens: 9000, cacheWriteTokens: 500 },
  result: 'Task created.',
};

for (const client of ['claude', 'codex', 'gemini'] as const satisfies readonly ClientKind[]) {
  test(`the scripted ${client} drives the real MCP server through the launch the runner would make, and prints ${client}'s output`, async () => {
    const workspace = tempDir('agent-ledger-ws-');
    const run = tempDir('agent-ledger-run-');
    const fakes = fakeAgents();
    const title = `Fix $(touch ${path.join(run, 'PWNED')}); \`id\` "${client}"`;
    const plan = buildLaunchPlan(client, {
      prompt: `You are agent coder.\nagent_id: coder\ntask_title: ${title}\n`,
      cwd: workspace,
      configDir: path.join(run, 'config'),
      mcpServers: [ledgerServer(workspace)],
      model: 'some-model',
    });
    const supervisor = new ProcessSupervisor();
    const proc = await launchClient(supervisor, plan, {
      id: `exec-${client}`,
      logDir: path.join(run, 'logs'),
      env: {
        ...fakes.env(script),
        ...(testStore === 'postgres'
          ? { AGENT_LEDGER_DB_PASSWORD: process.env.AGENT_LEDGER_TEST_PG_PASSWORD ?? '' }
          : {}),
      },
      secretEnv: { AGENT_LEDGER_PASSKEY: passkey },
      limits: { wallClockMs: 60_000 },
    });
    const exit = await proc.exited;
    assert.equal(exit.exitCode, 0, exit.tail.join('\n'));

    // What was launched: the real flags, the title as data, no secret on the command line.
    const [launched] = fakes.runs();
    assert.equal(launched.client, client);
    assert.equal(fs.realpathSync(launched.cwd), fs.realpathSync(workspace));
    assert.ok(!JSON.stringify(launched.argv).includes(passkey), 'no secret in argv');
    assert.ok(launched.envKeys.includes('AGENT_LEDGER_PASSKEY'), 'the secret came in the environment');
    assert.ok(launched.prompt.includes(title));
    assert.deepEqual(
      launched.mcpServers.map((s) => [s.name, s.unresolved]),
      [['agent-ledger', []]],
    );
    assert.ok(
      launched.mcpServers[0].envKeys.includes('AGENT_LEDGER_PASSKEY'),
      'the MCP server got the forwarded variable',
    );
    for (const file of plan.files)
      assert.ok(!fs.readFileSync(file.path, 'utf8').includes(passkey), `no secret in ${file.path}`);
    assert.deepEqual(
      fs.readdirSync(run).filter((f) => f.startsWith('PWNED')),
      [],
    );

    // What the agent did is in the ledger.
    const ledger = await connect(workspace);
    const tasks = await ledger.call<{ tasks: { id: number; title: string; priority: string }[] }>('task_list', {});
    await ledger.close();
    assert.deepEqual(
      tasks.tasks.map((t) => [t.title, t.priority]),
      [[title, 'high']],
    );

    // Its output: the client's own format, tokens and cost read back; the printed secret redacted.
    const usage = await readRunUsage(exit, plan.output);
    assert.equal(usage?.result, 'Task created.');
    assert.equal(usage?.isError, false);
    assert.equal(usage?.inputTokens, 1200);
    assert.equal(usage?.outputTokens, 340);
    assert.equal(usage?.cacheReadTokens, 9000);
    assert.equal(usage?.costUsd, client === 'claude' ? 0.0421 : null, 'only Claude Code reports a cost');
    const log = fs.readFileSync(exit.logFile, 'utf8');
    assert.ok(!log.includes(passkey), 'the secret never reaches the log');
    assert.ok(log.includes('[REDACTED]'));
  });
}
