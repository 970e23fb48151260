import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempRepo } from '../helpers/tmp';
import { startRawServer } from '../helpers/rawServer';
import { makeToken, startHttpServer } from '../helpers/httpServer';

const modern = '2026-07-28';
const meta = {
  'io.modelcontextprotocol/protocolVersion': modern,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'revisions-test', version: '1' },
};

function textJson(result: any): any {
  return JSON.parse(result.content[0].text);
}

test('stdio: a 2026-07-28 client (server/discover, _meta on each request) and a 2025-11-25 session on one ledger', async () => {
  const repo = tempRepo();
  // The opening Claude Code sends: server/discover, then stateless requests.
  const now = await startRawServer(repo, [], { handshake: false });
  const before = await startRawServer(repo);
  // A client that probes first and falls back on the same process (the SDK answers both).
  const probing = await startRawServer(repo, [], { handshake: false });
  try {
    const discover = await now.request(1, 'server/discover', { _meta: meta });
    assert.equal(discover.result?.resultType, 'complete');
    assert.ok((discover.result?.supportedVersions as string[]).includes(modern));
    assert.deepEqual((discover.result?._meta as any)['io.modelcontextprotocol/serverInfo'].name, 'agent-ledger');
    const list1 = await now.request(2, 'tools/list', { _meta: meta });
    const list2 = await now.request(3, 'tools/list', { _meta: meta });
    assert.equal(list1.result?.resultType, 'complete');
    assert.equal(typeof list1.result?.ttlMs, 'number');
    const names = (r: any) => r.result.tools.map((t: { name: string }) => t.name);
    assert.deepEqual(names(list2), names(list1), 'the same order every time');
    const created = await now.request(4, 'tools/call', {
      name: 'task_create',
      arguments: { title: 'written on 2026-07-28' },
      _meta: meta,
    });
    assert.equal(created.result?.resultType, 'complete');
    const id = (created.result?.structuredContent as { id: number }).id;

    // The 2025-11-25 session of another client sees it.
    const got = await before.request(5, 'tools/call', { name: 'task_get', arguments: { id } });
    assert.equal(got.result?.resultType, undefined, 'no 2026 vocabulary on a 2025 session');
    assert.equal(textJson(got.result).title, 'written on 2026-07-28');
    assert.deepEqual(names(await before.request(6, 'tools/list', {})), names(list1));

    const probe = await probing.request(7, 'server/discover', { _meta: meta });
    assert.ok(probe.result);
    const init = await probing.request(8, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'falls-back', version: '1' },
    });
    assert.equal(init.result?.protocolVersion, '2025-11-25');
    probing.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    assert.equal(
      textJson((await probing.request(9, 'tools/call', { name: 'task_get', arguments: { id } })).result).id,
      id,
    );
  } finally {
    await Promise.all([now.close(), before.close(), probing.close()]);
  }
});

test('HTTP: both revisions against one server, with the 2026-07-28 headers checked', async () => {
  const repo = tempRepo();
  const server = await startHttpServer(repo);
  const token = makeToken(repo, 'person', ['--name', 'fay']);
  const post = async (body: unknown, headers: Record<string, string>) => {
    const res = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        ...headers,
      },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as any, headers: res.headers };
  };
  const modernHeaders = (method: string, name?: string) => ({
    'mcp-protocol-version': modern,
    'mcp-method': method,
    ...(name ? { 'mcp-name': name } : {}),
  });
  try {
    const discover = await post(
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } },
      modernHeaders('server/discover'),
    );
    assert.equal(discover.status, 200);
    assert.ok(discover.json.result.supportedVersions.includes(modern));
    assert.equal(discover.headers.get('mcp-session-id'), null, 'stateless: no session');

    const call = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'task_create', arguments: { title: 'stateless over HTTP' }, _meta: meta },
    };
    const created = await post(call, modernHeaders('tools/call', 'task_create'));
    assert.equal(created.status, 200);
    assert.equal(created.json.result.resultType, 'complete');
    const id = created.json.result.structuredContent.id as number;

    // Headers that do not match the body are refused with the spec's code; nothing is written.
    const mismatch = await post({ ...call, id: 3 }, modernHeaders('tools/call', 'task_update'));
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.json.error.code, -32020);
    const missing = await post({ ...call, id: 4 }, { 'mcp-protocol-version': modern });
    assert.equal(missing.status, 400);
    const future = await post(
      {
        ...call,
        id: 5,
        params: { ...call.params, _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
      },
      { ...modernHeaders('tools/call', 'task_create'), 'mcp-protocol-version': '2099-01-01' },
    );
    assert.equal(future.status, 400);
    assert.equal(future.json.error.code, -32022);

    // A 2025-11-25 client on the same endpoint: initialize, then its calls.
    const init = await post(
      {
        jsonrpc: '2.0',
        id: 6,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
      },
      {},
    );
    assert.equal(init.status, 200);
    assert.equal(init.json.result.protocolVersion, '2025-11-25');
    const listed = await post(
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'task_list', arguments: {} } },
      { 'mcp-protocol-version': '2025-11-25' },
    );
    const titles = (listed.json.result.structuredContent.tasks as { id: number; title: string }[]).map((t) => t.id);
    assert.deepEqual(titles, [id], 'one task: the refused calls wrote nothing');
  } finally {
    await server.stop();
  }
});
