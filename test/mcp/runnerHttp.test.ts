/**
 * The runner against the team's HTTP ledger server (`runner --server-url`): the launched agent
 * connects by URL with a short-lived agent token in its environment (never in argv, a prompt or
 * a configuration file), logs in without a passkey (the token is its launch ticket), works as
 * that token, and the token dies with the run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fakeAgents, logIn } from '../helpers/fakeAgents';
import { cliJson } from '../helpers/cli';
import { startHttpServer } from '../helpers/httpServer';
import { readLedger } from '../helpers/ledgerRows';
import { pmWorld, runnerOnce, runningTask } from './pmHelpers';

test('runner --server-url: an agent joins the HTTP server with its launch token alone, and the token ends with the run', async () => {
  const { repo, c } = await pmWorld();
  const fakes = fakeAgents();
  const server = await startHttpServer(repo, ['--enable-pm']);
  try {
    const taskId = await runningTask(c, 'Work over HTTP', 'coder', 'web');
    const run = runnerOnce(
      repo,
      fakes.env({
        steps: [
          logIn,
          { call: 'get_my_task', args: {} },
          { call: 'report_completed', args: { result: 'success', summary: 'done over HTTP' } },
        ],
      }),
      ['--server-url', server.url],
    );
    assert.equal(run.code, 0, run.stderr);
    const [launch] = fakes.runs();
    assert.equal(launch.client, 'claude');
    const wired = launch.mcpServers[0] as (typeof launch.mcpServers)[0] & { url?: string; headerKeys?: string[] };
    assert.equal(wired.url, server.url);
    assert.deepEqual(wired.headerKeys, ['Authorization']);
    assert.deepEqual(wired.unresolved, [], 'the Authorization header was expanded from the environment');
    assert.ok(launch.envKeys.includes('AGENT_LEDGER_TOKEN'));
    assert.ok(!launch.envKeys.includes('AGENT_LEDGER_LAUNCH_TICKET'));

    // The token's value is nowhere but the client's environment: not in argv, the prompt, the files.
    const tokens = cliJson<{
      tokens: { id: string; role: string; agent: string; execution_id: string; status: string }[];
    }>(['token', 'list', '--all', '--workspace', repo]).tokens;
    assert.equal(tokens.length, 1);
    const [token] = tokens;
    assert.deepEqual(
      [token.role, token.agent, token.status],
      ['agent', 'coder', 'revoked'],
      'revoked when the run ended',
    );
    assert.match(token.execution_id, /^exec-\d+$/);
    const configFile = launch.argv.find((a) => a.startsWith('--mcp-config='))!.slice('--mcp-config='.length);
    const config = fs.readFileSync(configFile, 'utf8');
    assert.match(config, /"Authorization": "Bearer \$\{AGENT_LEDGER_TOKEN\}"/);
    const secrets = await readLedger(repo, (db) => db.all<{ digest: string }>('SELECT digest FROM access_tokens'));
    assert.equal(secrets.length, 1);
    for (const text of [launch.argv.join(' '), launch.prompt, config])
      assert.doesNotMatch(text, /alt_[A-Za-z0-9_-]{20,}/, 'no token value');
    const logDir = path.dirname(configFile);
    for (const f of fs.readdirSync(logDir)) {
      const file = path.join(logDir, f);
      if (fs.statSync(file).isFile()) assert.doesNotMatch(fs.readFileSync(file, 'utf8'), /alt_[A-Za-z0-9_-]{20,}/, f);
    }

    // The work was done as that token, and the task is done.
    const task = await c.call<{ task: { status: string } }>('get_task', { task_id: taskId });
    assert.equal(task.task.status, 'done');
    const byToken = await readLedger(repo, (db) =>
      db.all<{ kind: string; token_id: number | null }>(
        "SELECT kind, token_id FROM events WHERE kind IN ('agent.session_started', 'task.completed') ORDER BY seq",
      ),
    );
    assert.ok(byToken.length >= 1);
    for (const e of byToken) assert.equal(`token-${e.token_id}`, token.id, e.kind);
  } finally {
    await c.close();
    await server.stop();
  }
});
