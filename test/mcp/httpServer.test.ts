import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { tempRepo } from '../helpers/tmp';
import { cli, cliJson } from '../helpers/cli';
import {
  makeToken,
  modernRequest,
  startHttpServer,
  structured,
  toolError,
  v1HttpClient,
  v2HttpClient,
} from '../helpers/httpServer';
import { readLedger } from '../helpers/ledgerRows';

/** A raw POST to the endpoint, as any HTTP client sends it. */
async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, headers: res.headers, json };
}

function modernCall(name: string, args: Record<string, unknown>, id = 1): ReturnType<typeof modernRequest> {
  return modernRequest('tools/call', { name, arguments: args }, { id });
}

async function taskCount(workspace: string): Promise<number> {
  return (await readLedger(workspace, (db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM tasks')))!.n;
}

test('a team server: people and agents connect by URL and token, each write records its token', async () => {
  const repo = tempRepo();
  const server = await startHttpServer(repo);
  const alice = makeToken(repo, 'person', ['--name', 'alice']);
  const coder = makeToken(repo, 'agent', ['--agent', 'coder']);
  const tokens = cliJson<{ tokens: { id: string; role: string; name: string; status: string }[] }>([
    'token',
    'list',
    '--workspace',
    repo,
  ]).tokens;
  assert.deepEqual(
    tokens.map((t) => [t.role, t.name, t.status]),
    [
      ['person', 'alice', 'active'],
      ['agent', 'coder', 'active'],
    ],
  );
  assert.ok(!JSON.stringify(tokens).includes(alice), 'a listed token never shows its secret');

  // The SDK's v1 client (2025-11-25) as alice, and its v2 client (2026-07-28) as the agent.
  const v1 = await v1HttpClient(server.url, alice);
  const v2 = await v2HttpClient(server.url, coder);
  try {
    assert.equal(v2.getProtocolEra(), 'modern', 'the v2 client connected with the current revision');
    const names1 = (await v1.listTools()).tools.map((t) => t.name);
    const names2 = (await v2.listTools()).tools.map((t) => t.name);
    assert.deepEqual(names1, names2, 'both revisions list the same tools, in the same order');
    assert.ok(names1.includes('task_create'));

    const byAlice = structured<{ id: number }>(
      await v1.callTool({ name: 'task_create', arguments: { title: 'Written by a person over HTTP' } }),
    );
    const byCoder = structured<{ id: number }>(
      await v2.callTool({ name: 'task_create', arguments: { title: 'Written by an agent over HTTP' } }),
    );
    const info = structured<{ transports: { stdio: unknown; http: Record<string, unknown> } }>(
      await v2.callTool({ name: 'mcp_info', arguments: {} }),
    );
    const port = Number(new URL(server.url).port);
    assert.deepEqual(info.transports, {
      stdio: { enabled: false },
      http: { enabled: true, host: '127.0.0.1', port, path: '/mcp', enableJson: true, stateless: true },
    });

    // Each write's event names the token that made it (the CLI's own writes name none).
    const ids = Object.fromEntries(tokens.map((t) => [t.name, Number(t.id.replace('token-', ''))]));
    const rows = await readLedger(repo, (db) =>
      db.all<{ task_id: number; token_id: number | null }>(
        "SELECT task_id, token_id FROM events WHERE kind = 'task.created' ORDER BY seq",
      ),
    );
    assert.deepEqual(
      rows.map((r) => [r.task_id, r.token_id === null ? null : Number(r.token_id)]),
      [
        [byAlice.id, ids.alice],
        [byCoder.id, ids.coder],
      ],
    );
  } finally {
    await v1.close();
    await v2.close();
    await server.stop();
  }
});

test('refused without a valid token, coded, with nothing written and the others still served', async () => {
  const repo = tempRepo();
  const server = await startHttpServer(repo);
  const person = makeToken(repo, 'person', ['--name', 'bob']);
  const revoked = makeToken(repo, 'person', ['--name', 'carol']);
  const expiring = makeToken(repo, 'person', ['--name', 'dave', '--expires', '1s']);
  const revokedId = cliJson<{ tokens: { id: string; name: string }[] }>([
    'token',
    'list',
    '--workspace',
    repo,
  ]).tokens.find((t) => t.name === 'carol')!.id;
  assert.equal(cli(['token', 'revoke', revokedId, '--workspace', repo]).code, 0);
  await new Promise((r) => setTimeout(r, 1500));
  try {
    const before = await taskCount(repo);
    const write = modernCall('task_create', { title: 'must not be written' });
    const answers = [];
    for (const auth of [undefined, 'Bearer alt_not-a-token', `Bearer ${revoked}`, `Bearer ${expiring}`, 'Basic abc']) {
      const r = await post(server.url, write.body, { ...write.headers, ...(auth ? { authorization: auth } : {}) });
      answers.push(r);
      assert.equal(r.status, 401, `${auth ?? 'no token'}: 401`);
      assert.equal(r.json.error.code, -32011);
      assert.match(
        r.headers.get('www-authenticate') ?? '',
        /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/,
      );
    }
    assert.equal(new Set(answers.map((a) => a.json.error.message)).size, 1, 'the same words whichever part was wrong');
    assert.equal(await taskCount(repo), before, 'nothing written');

    // The metadata a client reads to learn how to authenticate (RFC 9728).
    const metadata = await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', server.url))).json();
    assert.equal(metadata.resource, server.url);
    assert.deepEqual(metadata.bearer_methods_supported, ['header']);

    // A foreign Origin (a web page) and an oversized body are refused before anything runs.
    const foreign = await post(server.url, write.body, {
      ...write.headers,
      authorization: `Bearer ${person}`,
      origin: 'https://evil.example',
    });
    assert.equal(foreign.status, 403);
    const huge = await post(
      server.url,
      JSON.stringify({ ...(write.body as object), padding: 'x'.repeat(5 * 1024 * 1024) }),
      { ...write.headers, authorization: `Bearer ${person}` },
    );
    assert.equal(huge.status, 413);
    assert.equal(huge.json.error.code, -32600);
    assert.equal(await taskCount(repo), before, 'nothing written');

    // The valid token is served all along.
    const ok = await post(server.url, write.body, { ...write.headers, authorization: `Bearer ${person}` });
    assert.equal(ok.status, 200);
    assert.equal(ok.json.result.isError, undefined);
    assert.equal(await taskCount(repo), before + 1);
  } finally {
    await server.stop();
  }
});

test('an agent token never makes a person’s decision and never leaves its own agent and projects', async () => {
  const repo = tempRepo();
  const server = await startHttpServer(repo, ['--enable-pm', '--allow-agent-checkpoints']);
  cliJson(['project', 'create', 'web', '--workspace', repo]);
  cliJson(['project', 'create', 'api', '--workspace', repo]);
  const agent = makeToken(repo, 'agent', ['--agent', 'coder', '--project', 'web']);
  const client = await v2HttpClient(server.url, agent);
  try {
    const decide = toolError(
      await client.callTool({
        name: 'pipeline_next_action',
        arguments: { workspace: 'any', user_response: 'approve' },
      }),
    );
    assert.deepEqual([decide.code, decide.reason], [-32014, 'Forbidden']);
    const other = toolError(
      await client.callTool({
        name: 'authenticate',
        arguments: { agent_id: 'reviewer', passkey: 'x'.repeat(12), project_id: 'web' },
      }),
    );
    assert.equal(other.reason, 'Forbidden');
    const elsewhere = toolError(await client.callTool({ name: 'list_tasks', arguments: { project_id: 'api' } }));
    assert.equal(elsewhere.reason, 'Forbidden');
    for (const e of [decide, other, elsewhere]) assert.match(e.message, /^forbidden: this token may not /);
    const runner = toolError(
      await client.callTool({ name: 'should_start', arguments: { agent_id: 'coder', project_id: 'web' } }),
    );
    assert.equal(runner.reason, 'Forbidden', "the runner's tools need an admin token");
    structured(await client.callTool({ name: 'list_tasks', arguments: { project_id: 'web' } }));
  } finally {
    await client.close();
    await server.stop();
  }
});

test('a thousand idle connections are bounded and the server still answers its clients', async () => {
  const repo = tempRepo();
  const server = await startHttpServer(repo);
  const token = makeToken(repo, 'person', ['--name', 'erin']);
  const { hostname, port } = new URL(server.url);
  const sockets: net.Socket[] = [];
  let closedByServer = 0;
  try {
    await Promise.all(
      Array.from(
        { length: 1000 },
        () =>
          new Promise<void>((resolve) => {
            const s = net.connect(Number(port), hostname, () => resolve());
            s.on('error', () => resolve());
            s.on('close', () => (closedByServer += 1));
            sockets.push(s);
          }),
      ),
    );
    const client = await v2HttpClient(server.url, token);
    try {
      const created = structured<{ id: number }>(
        await client.callTool({ name: 'task_create', arguments: { title: 'served beside 1,000 idle sockets' } }),
      );
      assert.ok(created.id > 0);
    } finally {
      await client.close();
    }
    assert.ok(closedByServer >= 1000 - 512, `the idle connections past the bound were closed (${closedByServer})`);
  } finally {
    for (const s of sockets) s.destroy();
    await server.stop();
  }
});

test('--no-token and another address: refused unless on loopback; bad --http values are coded', async () => {
  const repo = tempRepo();
  const refused = cli(['mcp', 'serve', '--workspace', repo, '--http', '0.0.0.0:0', '--no-token']);
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /--no-token serves without tokens, so only on loopback/);
  const bad = cli(['mcp', 'serve', '--workspace', repo, '--http', 'nowhere']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--http takes \[HOST:\]PORT/);
  const stray = cli(['mcp', 'serve', '--workspace', repo, '--stateful']);
  assert.equal(stray.code, 2);
  assert.match(stray.stderr, /--stateful goes with --http/);
});

test('clients that disconnect mid-call (a wait, a stream) leave the server serving, and their waits end', async () => {
  const repo = tempRepo();
  const server = await startHttpServer(repo, ['--enable-orchestrator']);
  const token = makeToken(repo, 'person', ['--name', 'lou']);
  try {
    const watch = modernCall('bb_watch', { start_version: 0, wait_ms: 30_000 });
    const started = Date.now();
    // Fifty clients start a 30 s wait and go away at once, on a JSON answer and on an event stream.
    await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const abort = new AbortController();
        const pending = fetch(server.url, {
          method: 'POST',
          signal: abort.signal,
          headers: {
            ...watch.headers,
            accept: i % 2 ? 'text/event-stream, application/json' : 'application/json, text/event-stream',
            authorization: `Bearer ${token}`,
          },
          body: JSON.stringify({ ...(watch.body as object), id: i }),
        }).then((r) => r.body?.getReader().read());
        await new Promise((r) => setTimeout(r, 300));
        abort.abort();
        await pending.catch(() => undefined);
      }),
    );
    // The server answers at once, and a wait someone stays for still ends the moment it should.
    const waiter = post(server.url, modernCall('bb_watch', { start_version: 0, wait_ms: 20_000 }, 100).body, {
      ...modernCall('bb_watch', {}).headers,
      authorization: `Bearer ${token}`,
    });
    const set = await post(server.url, modernCall('bb_set', { key: 'k', value: 1 }, 101).body, {
      ...modernCall('bb_set', {}).headers,
      authorization: `Bearer ${token}`,
    });
    assert.equal(set.status, 200);
    assert.equal(set.json.result.isError, undefined);
    const woke = await waiter;
    assert.equal(woke.status, 200);
    assert.equal(woke.json.result.structuredContent.events.length, 1);
    assert.ok(Date.now() - started < 25_000, 'the aborted waits did not hold the server up');
    assert.doesNotMatch(server.stderr(), /unexpected (error|rejection)/);
  } finally {
    await server.stop();
  }
});
