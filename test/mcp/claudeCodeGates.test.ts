/**
 * The real Claude Code binary (scripts/agentClis.mjs) against `mcp serve --http`, driven by the
 * scripted model on loopback (test/helpers/scriptedModel):
 * a person approves a pipeline checkpoint in Claude Code's own prompt (its interactive UI, in
 * tmux), and `claude -p` (which declares elicitation but cancels every question) makes a write and
 * decides nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../helpers/tmp';
import { cli } from '../helpers/cli';
import { makeToken, startHttpServer } from '../helpers/httpServer';
import { readLedger } from '../helpers/ledgerRows';
import { until } from '../helpers/processes';
import { startScriptedModel } from '../helpers/scriptedModel/scriptedModel';
import { installedCli, skipUnlessInstalled } from '../helpers/agentClis';
import { run } from '../helpers/mcpTools';
import { decisions, pipelineAtCheckpoint } from './gateHelpers';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
/** CI installs tmux (.ci/run): there a missing one fails the test instead of skipping it. */
const skipInteractive =
  skipUnlessInstalled('claude') || (hasTmux || process.env.CI ? false : 'tmux is not installed (apt-get install tmux)');

function claudeProgram(): string {
  const cli = installedCli('claude');
  assert.ok(cli, 'Claude Code is installed: node scripts/agentClis.mjs');
  return cli.bin;
}

/** A private HOME for Claude Code with the ledger added over HTTP, onboarding done, the folder trusted. */
async function claudeHome(claude: string, repo: string, url: string, token: string, allow: string[]) {
  const home = tempDir('agent-ledger-claude-home-');
  const env = {
    ...process.env,
    HOME: home,
    TMPDIR: tempDir('agent-ledger-claude-tmp-'),
    DISABLE_AUTOUPDATER: '1',
    // The MCP tools in the first request, not behind a tool search.
    ENABLE_TOOL_SEARCH: 'false',
    ANTHROPIC_API_KEY: 'sk-ant-test-key-000000000000',
  };
  const added = await run(
    claude,
    ['mcp', 'add', '--transport', 'http', 'ledger', url, '-H', `Authorization: Bearer ${token}`],
    {
      cwd: repo,
      env,
    },
  );
  assert.equal(added.code, 0, added.stderr);
  const configFile = path.join(home, '.claude.json');
  const config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
  config.hasCompletedOnboarding = true;
  config.customApiKeyResponses = { approved: [env.ANTHROPIC_API_KEY.slice(-20)], rejected: [] };
  config.projects[repo] = { ...config.projects[repo], hasTrustDialogAccepted: true };
  fs.writeFileSync(configFile, JSON.stringify(config));
  fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
  fs.writeFileSync(path.join(home, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow } }));
  const connected = (): boolean => {
    const root = path.join(home, '.cache', 'claude-cli-nodejs');
    if (!fs.existsSync(root)) return false;
    return fs
      .readdirSync(root)
      .map((d) => path.join(root, d, 'mcp-logs-ledger'))
      .filter((d) => fs.existsSync(d))
      .some((d) =>
        fs
          .readdirSync(d)
          .some((f) => fs.readFileSync(path.join(d, f), 'utf8').includes('"protocolEra\\":\\"modern\\"')),
      );
  };
  return { home, env, connected };
}

test(
  "a person approves a checkpoint in Claude Code's own prompt, and it passes as theirs",
  { skip: skipInteractive },
  async () => {
    const claude = claudeProgram();
    const { repo, workspace, checkpoint, agent } = await pipelineAtCheckpoint();
    await agent.close();
    assert.equal(cli(['pipeline', 'client-gates', 'on', '--workspace', repo]).code, 0);
    const server = await startHttpServer(repo, ['--verbose']);
    const token = makeToken(repo, 'person', ['--name', 'alice']);
    const model = await startScriptedModel([
      { callTool: 'pipeline_next_action', args: { workspace }, server: 'ledger' },
      { say: 'The checkpoint is answered.' },
    ]);
    const { env, connected } = await claudeHome(claude, repo, server.url, token, ['mcp__ledger__pipeline_next_action']);
    const session = `agent-ledger-${process.pid}-${Date.now()}`;
    const pane = (): string => execFileSync('tmux', ['capture-pane', '-t', session, '-p'], { encoding: 'utf8' });
    const keys = (...k: string[]) => execFileSync('tmux', ['send-keys', '-t', session, ...k]);
    try {
      const shellEnv = Object.entries({ ...env, ANTHROPIC_BASE_URL: model.url })
        .filter(([k]) => /^[A-Z_][A-Z0-9_]*$/.test(k))
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(' ');
      execFileSync('tmux', [
        'new-session',
        '-d',
        '-s',
        session,
        '-x',
        '160',
        '-y',
        '50',
        `cd ${JSON.stringify(repo)} && env ${shellEnv} ${JSON.stringify(claude)}; sleep 120`,
      ]);
      // Ready, and connected to the ledger with 2026-07-28 (its log says so): then ask.
      await until('Claude Code connected to the ledger', () => connected(), 60_000);
      await until('the prompt', () => pane().includes('❯'), 60_000);
      keys('-l', 'Move the pipeline on: call pipeline_next_action.');
      keys('Enter');
      await until('the question in Claude Code', () => pane().includes('requests your input'), 60_000);
      assert.match(pane(), /MCP server .ledger. requests your input/);
      assert.match(pane(), /Checkpoint A/);
      // The decision list: expand, pick the first option (Approve), then a comment, then Accept.
      keys('Right');
      await until('the options', () => pane().includes('Request changes'), 10_000);
      keys('Space');
      await until('Approve picked', () => /Decision: .*Approve/.test(pane()), 10_000);
      keys('Down');
      await until('the comment field', () => /❯\s+Comment/.test(pane()), 10_000);
      keys('-l', 'ship it');
      await until('the comment typed', () => pane().includes('ship it'), 10_000);
      keys('Down');
      await until('Accept selected', () => /❯ Accept/.test(pane()), 10_000).catch((err: Error) => {
        throw new Error(`${err.message}; the screen:\n${pane()}`);
      });
      // A key sent in the same instant as the screen update can be lost: press until the form closes.
      await until(
        'the form submitted',
        async () => {
          if (!pane().includes('requests your input')) return true;
          keys('Enter');
          await new Promise((r) => setTimeout(r, 1500));
          return !pane().includes('requests your input');
        },
        30_000,
      );
      const decided = await until(
        'the decision in the ledger',
        () => decisions(repo, workspace).find((d) => d.name === checkpoint),
        60_000,
      ).catch((err: Error) => {
        throw new Error(`${err.message}; the screen:\n${pane()}\nthe server:\n${server.stderr()}`);
      });
      assert.deepEqual([decided.decision, decided.comment, decided.decided_by], ['approve', 'ship it', 'alice']);
      assert.match(decided.via, /^client \(token-\d+\)$/);
      assert.deepEqual(model.errors, []);
      // After the answer the same call goes on: the pipeline's next action, no longer this checkpoint.
      const result = await until(
        'the tool result passed to the model',
        () => model.conversations().at(-1)?.lastResult('pipeline_next_action'),
        30_000,
      );
      assert.equal(result.isError, false, result.text);
      assert.doesNotMatch(result.text, new RegExp(`"name":\\s*"${checkpoint}"`));
    } finally {
      spawnSync('tmux', ['kill-session', '-t', session]);
      await model.close();
      await server.stop();
    }
  },
);

test(
  'claude -p writes over HTTP as its token; its automatic cancel decides nothing and is not asked again',
  {
    skip: skipUnlessInstalled('claude'),
  },
  async () => {
    const claude = claudeProgram();
    const { repo, workspace, checkpoint, agent } = await pipelineAtCheckpoint();
    await agent.close();
    assert.equal(cli(['pipeline', 'client-gates', 'on', '--workspace', repo]).code, 0);
    const server = await startHttpServer(repo, ['--verbose']);
    const token = makeToken(repo, 'person', ['--name', 'bea']);
    const model = await startScriptedModel([
      { callTool: 'task_create', args: { title: 'written by claude -p over HTTP' }, server: 'ledger' },
      { callTool: 'pipeline_next_action', args: { workspace }, server: 'ledger' },
      // Again: the checkpoint -p cancelled is not asked of it a second time.
      { callTool: 'pipeline_next_action', args: { workspace }, server: 'ledger' },
      { say: 'Done.' },
    ]);
    const allow = ['mcp__ledger__task_create', 'mcp__ledger__pipeline_next_action'];
    const { env } = await claudeHome(claude, repo, server.url, token, allow);
    try {
      const r = await run(claude, ['-p', 'Record the task, then move the pipeline on.', '--output-format', 'json'], {
        cwd: repo,
        env: { ...env, ANTHROPIC_BASE_URL: model.url },
        timeoutMs: 180_000,
      });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(model.errors, []);
      assert.ok(model.finished, 'every scripted call was made');
      // Each next action the model read: the checkpoint, still waiting for a person (never "still
      // required input after N rounds", which a server that asks again on cancel makes Claude Code say).
      const results = model
        .conversations()
        .at(-1)!
        .results.filter((x) => x.name.endsWith('pipeline_next_action'));
      assert.equal(results.length, 2);
      for (const result of results) {
        assert.equal(result.isError, false, result.text);
        assert.match(result.text, new RegExp(`"name":\\s*"${checkpoint}"`));
        assert.doesNotMatch(result.text, /required input/);
      }
      // What the server did: asked once, got a cancel, and did not ask on the second call.
      const gateLines = server
        .stderr()
        .split('\n')
        .filter((line) => line.includes(`checkpoint ${checkpoint}: `));
      assert.deepEqual(
        gateLines.map((line) => line.split(`checkpoint ${checkpoint}: `)[1].split(' ')[0]),
        ['asked', 'cancel'],
        server.stderr(),
      );
      assert.match(gateLines[0], /asked of token-\d+ \(claude-code\)$/);
      const rows = await readLedger(repo, (db) =>
        db.all<{ title: string; token_id: number | null }>(
          "SELECT t.title, e.token_id FROM tasks t JOIN events e ON e.task_id = t.id AND e.kind = 'task.created'",
        ),
      );
      const listed = JSON.parse(cli(['token', 'list', '--workspace', repo, '--json']).stdout).tokens[0].id;
      assert.deepEqual(
        rows.map((row) => [row.title, `token-${row.token_id}`]),
        [['written by claude -p over HTTP', listed]],
      );
      assert.deepEqual(decisions(repo, workspace), [], '-p answers the question with cancel: no decision');
    } finally {
      await model.close();
      await server.stop();
    }
  },
);
