// `agent-ledger db init|migrate|copy` on both engines, through the built CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cliPath } from '../helpers/mcpClient';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createTestDatabase, pgPassword, pgSkip, pgUrl } from '../helpers/postgres';
import { tempDir } from '../helpers/tmp';

function run(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cliPath, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', PGPASSWORD: '', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('a URL is never a path: unsupported schemes are refused with exit 3 and no folder appears', () => {
  const cwd = tempDir();
  for (const db of ['mysql://root@localhost/ledger', 'http://example.com/x', 'postgres:ledger']) {
    const r = run(['db', 'init', '--db', db, '--json'], cwd);
    assert.equal(r.code, 3, `${db}: ${r.stderr}`);
    assert.equal(JSON.parse(r.stderr).error.reason, 'badLocation');
  }
  assert.deepEqual(fs.readdirSync(cwd), [], 'nothing was created in the current folder');
});

test('the other commands and mcp serve take no URL for a path: postgres:// opens the server (unreachable: unavailable, password redacted), other schemes are badLocation, and no folder appears', () => {
  const cwd = tempDir();
  const pg = run(['task', 'list', '--db', 'postgres://ledger:secret-pw@127.0.0.1:1/ledger', '--json'], cwd, {
    AGENT_LEDGER_DB_RETRY_MS: '200',
  });
  assert.equal(pg.code, 1, pg.stderr);
  assert.equal(JSON.parse(pg.stderr).error.reason, 'unavailable');
  assert.ok(!pg.stderr.includes('secret-pw'), 'the password is not printed');
  const other = run(['task', 'list', '--db', 'mysql://root@localhost/ledger', '--json'], cwd);
  assert.equal(other.code, 3, other.stderr);
  assert.equal(JSON.parse(other.stderr).error.reason, 'badLocation');
  const fromEnv = run(['task', 'list', '--json'], cwd, { AGENT_LEDGER_DB: 'mysql://root@localhost/ledger' });
  assert.equal(fromEnv.code, 3, fromEnv.stderr);
  assert.equal(JSON.parse(fromEnv.stderr).error.reason, 'badLocation', 'AGENT_LEDGER_DB stands for --db');
  // mcp serve says why on stderr as it starts, and still answers (each call: the coded reason, below).
  const serve = run(['mcp', 'serve', '--db', 'postgres://ledger:secret-pw@127.0.0.1:1/ledger'], cwd, {
    AGENT_LEDGER_DB_RETRY_MS: '200',
  });
  assert.equal(serve.code, 0, serve.stderr);
  assert.match(serve.stderr, /cannot be reached/);
  assert.ok(!serve.stderr.includes('secret-pw'), 'the password is not printed');
  assert.deepEqual(fs.readdirSync(cwd), [], 'nothing was created in the current folder');
});

test(
  'a postgres:// URL without a password: the CLI says so and exits at once; mcp serve answers initialize, then each call with the coded error',
  { skip: pgSkip },
  async () => {
    const cwd = tempDir();
    const noPassword = {
      AGENT_LEDGER_DB_PASSWORD: undefined,
      PGPASSWORD: undefined,
      PGPASSFILE: path.join(cwd, 'none'),
    };
    // The driver used to leave its socket open until the server's authentication_timeout (60 s).
    const started = Date.now();
    const r = spawnSync(process.execPath, [cliPath, 'task', 'list', '--db', pgUrl!, '--json'], {
      cwd,
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, NO_COLOR: '1', ...noPassword },
    });
    assert.equal(r.status, 1, `exit code ${r.status} after ${Date.now() - started} ms: ${r.stderr}`);
    const error = JSON.parse(r.stderr).error;
    assert.equal(error.reason, 'authFailed');
    assert.match(error.message, /refused the login: no password was given/);

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, 'mcp', 'serve', '--workspace', cwd, '--db', pgUrl!],
      env: Object.fromEntries(
        Object.entries({ ...process.env, ...noPassword }).filter(([, v]) => v !== undefined),
      ) as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'no-password', version: '1.0.0' });
    await client.connect(transport, { timeout: 20_000 }); // initialize is answered
    try {
      assert.ok((await client.listTools()).tools.some((t) => t.name === 'task_list'));
      for (let i = 0; i < 2; i++) {
        const answer = await client.callTool({ name: 'task_list', arguments: {} }, undefined, { timeout: 20_000 });
        assert.equal(answer.isError, true);
        const { error: refused } = JSON.parse((answer.content as { text: string }[])[0].text);
        assert.equal(refused.code, -32010, 'StoreError');
        assert.equal(refused.data?.reason, 'authFailed');
        assert.match(refused.message, /no password was given/);
      }
      assert.match(stderr, /no password was given/, 'the server also says why on stderr');
    } finally {
      await client.close();
    }
  },
);

test('db init, migrate and copy against PostgreSQL; the password never shows', { skip: pgSkip }, async () => {
  const cwd = tempDir();
  const db = await createTestDatabase();
  const withPassword = new URL(db.url);
  withPassword.password = pgPassword!;
  try {
    const env = { AGENT_LEDGER_DB_PASSWORD: pgPassword };
    const init = run(['db', 'init', '--db', db.url, '--json'], cwd, env);
    assert.equal(init.code, 0, init.stderr);
    const report = JSON.parse(init.stdout);
    assert.equal(report.kind, 'postgres');
    assert.equal(report.from, 0);
    assert.ok(report.to >= 5);
    const again = run(['db', 'migrate', '--db', withPassword.toString()], cwd);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /ledger schema is at v\d+/);
    assert.ok(!again.stdout.includes(pgPassword!), 'the password from the URL is not printed');
    assert.match(again.stdout, /:\*\*\*@/);

    const refused = run(['db', 'migrate', '--db', db.url, '--json'], cwd, {
      AGENT_LEDGER_DB_PASSWORD: 'not-the-password',
    });
    assert.equal(refused.code, 3);
    assert.equal(JSON.parse(refused.stderr).error.reason, 'authFailed');
    assert.ok(!refused.stderr.includes('not-the-password'));

    // A ledger made by the ordinary commands, copied to the server and back into a new workspace.
    const workspace = tempDir();
    assert.equal(run(['task', 'create', 'written on the embedded store', '--workspace', workspace], workspace).code, 0);
    assert.equal(run(['task', 'create', 'a second one', '--workspace', workspace], workspace).code, 0);
    const copy = run(['db', 'copy', '--workspace', workspace, '--to', db.url, '--json'], workspace, env);
    assert.equal(copy.code, 0, copy.stderr);
    assert.equal(JSON.parse(copy.stdout).tables.find((t: { table: string }) => t.table === 'tasks').rows, 2);
    const twice = run(['db', 'copy', '--workspace', workspace, '--to', db.url, '--json'], workspace, env);
    assert.equal(twice.code, 6, 'a target that holds a ledger is refused');
    assert.equal(JSON.parse(twice.stderr).error.reason, 'notEmpty');
    const back = tempDir();
    const home = run(
      ['db', 'copy', '--from', db.url, '--to', path.join(back, '.agent-ledger', 'ledger.db')],
      back,
      env,
    );
    assert.equal(home.code, 0, home.stderr);
    assert.match(home.stdout, /Copied \d+ rows/);
    const list = run(['task', 'list', '--workspace', back, '--json'], back);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /written on the embedded store/);
    assert.match(list.stdout, /a second one/);
  } finally {
    await db.drop();
  }
});
