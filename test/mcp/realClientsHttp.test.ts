import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir, tempRepo } from '../helpers/tmp';
import { makeToken, startHttpServer } from '../helpers/httpServer';
import { cliPath } from '../helpers/mcpClient';
import { ledgerEnv } from '../helpers/testLedger';
import { SkipTool, mcpTool, run } from '../helpers/mcpTools';
import { installedCli, skipUnlessInstalled } from '../helpers/agentClis';

async function tools(t: { skip(message: string): void }, ...names: Parameters<typeof mcpTool>[0][]) {
  try {
    const programs: string[] = [];
    for (const name of names) programs.push(await mcpTool(name));
    return programs;
  } catch (err) {
    if (err instanceof SkipTool) {
      t.skip(err.message);
      return undefined;
    }
    throw err;
  }
}

test('the MCP Inspector CLI lists the tools and writes with a token, both revisions; without one it is refused', async (t) => {
  const found = await tools(t, 'node22', 'inspector');
  if (!found) return;
  const [node22, inspector] = found;
  const repo = tempRepo();
  const server = await startHttpServer(repo);
  const token = makeToken(repo, 'person', ['--name', 'ines']);
  const inspect = (...args: string[]) =>
    run(node22, [inspector, '--cli', server.url, ...args, '-q'], { timeoutMs: 120_000 });
  try {
    for (const era of ['legacy', 'modern']) {
      const auth = ['--header', `Authorization: Bearer ${token}`, '--protocol-era', era];
      const listed = await inspect(...auth, '--method', 'tools/list');
      assert.equal(listed.code, 0, `${era}: ${listed.stderr}`);
      const names = (JSON.parse(listed.stdout).tools as { name: string }[]).map((x) => x.name);
      assert.ok(names.includes('task_create') && names.includes('mcp_info'), era);
      const wrote = await inspect(
        ...auth,
        '--method',
        'tools/call',
        '--tool-name',
        'task_create',
        '--tool-arg',
        `title=written by the Inspector (${era})`,
        '--format',
        'json',
      );
      assert.equal(wrote.code, 0, `${era}: ${wrote.stderr}`);
      assert.match(wrote.stdout, new RegExp(`written by the Inspector \\(${era}\\)`));
    }
    const refused = await inspect('--method', 'tools/list', '--stored-auth-only');
    assert.equal(refused.code, 3, 'auth_required');
    assert.match(refused.stdout + refused.stderr, /-32011/);
    const wrong = await inspect(
      '--header',
      'Authorization: Bearer alt_wrong',
      '--method',
      'tools/list',
      '--stored-auth-only',
    );
    assert.notEqual(wrong.code, 0);
  } finally {
    await server.stop();
  }
});

/**
 * Claude Code's own `claude mcp add` / `claude mcp list` (no model needed: list connects to each
 * server). Its debug log names the revision it connected with: `protocolEra: modern` means it
 * spoke 2026-07-28 without falling back.
 */
test(
  'Claude Code connects over HTTP with a token (2026-07-28, no fallback), and over stdio; without a token it cannot',
  {
    skip: skipUnlessInstalled('claude'),
  },
  async () => {
    const claude = installedCli('claude')?.bin;
    assert.ok(claude, 'Claude Code is installed: node scripts/agentClis.mjs');
    const repo = tempRepo();
    const server = await startHttpServer(repo);
    const token = makeToken(repo, 'person', ['--name', 'kim']);
    const home = tempDir('agent-ledger-claude-home-');
    // Its own HOME and TMPDIR: its settings, logs and scratch files stay in this test's folders.
    const env = {
      ...ledgerEnv(repo),
      HOME: home,
      TMPDIR: tempDir('agent-ledger-claude-tmp-'),
      DISABLE_AUTOUPDATER: '1',
    };
    const claudeIn = (...args: string[]) => run(claude, args, { cwd: repo, env, timeoutMs: 120_000 });
    try {
      assert.equal(
        (
          await claudeIn(
            'mcp',
            'add',
            '--transport',
            'http',
            'ledger',
            server.url,
            '-H',
            `Authorization: Bearer ${token}`,
          )
        ).code,
        0,
      );
      assert.equal((await claudeIn('mcp', 'add', '--transport', 'http', 'anonymous', server.url)).code, 0);
      const added = await claudeIn(
        'mcp',
        'add',
        'local-ledger',
        '--',
        process.execPath,
        cliPath,
        'mcp',
        'serve',
        '--workspace',
        repo,
      );
      assert.equal(added.code, 0, added.stderr);
      const listed = await claudeIn('mcp', 'list');
      const line = (name: string) => listed.stdout.split('\n').find((l) => l.startsWith(`${name}: `)) ?? '';
      assert.match(line('ledger'), /\(HTTP\) - ✔ Connected$/, listed.stdout);
      assert.match(line('local-ledger'), /✔ Connected$/, listed.stdout);
      assert.match(line('anonymous'), /✘ Failed to connect/, 'refused without a token');

      // What Claude Code itself logged about each connection.
      const logs = (name: string): string => {
        const root = path.join(home, '.cache', 'claude-cli-nodejs');
        const dirs = fs.existsSync(root) ? fs.readdirSync(root).map((d) => path.join(root, d, `mcp-logs-${name}`)) : [];
        return dirs
          .filter((d) => fs.existsSync(d))
          .flatMap((d) => fs.readdirSync(d).map((f) => fs.readFileSync(path.join(d, f), 'utf8')))
          .join('\n');
      };
      for (const name of ['ledger', 'local-ledger'])
        assert.match(
          logs(name),
          /\\"protocolEra\\":\\"modern\\",\\"negotiatedProtocolVersion\\":\\"2026-07-28\\"/,
          name,
        );
      // The server saw the token's caller: its last use was recorded.
      const used = await run(process.execPath, [cliPath, 'token', 'list', '--workspace', repo, '--json'], {
        env: ledgerEnv(repo),
      });
      assert.ok(JSON.parse(used.stdout).tokens[0].last_used_at, 'the token was used');
    } finally {
      await server.stop();
    }
  },
);
