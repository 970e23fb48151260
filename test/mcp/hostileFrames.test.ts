import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { quote } from 'shell-quote';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { cliPath, connect } from '../helpers/mcpClient';
import { startRawServer } from '../helpers/rawServer';
import type { RawServer } from '../helpers/rawServer';
import { tempRepo } from '../helpers/tmp';

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;
// A resource that does not exist: -32602 with data.uri (2026-07-28; the SDK maps the older -32002 on both revisions).
const RESOURCE_NOT_FOUND = -32602;

/**
 * Raw frames on the server's stdin, as a broken or hostile client writes them: each gets the
 * JSON-RPC error the spec names (or, for a notification, a line on stderr), the process stays
 * up, and the next valid request is answered.
 */
describe('mcp serve refuses hostile frames and keeps serving', () => {
  let repo: string;
  let s: RawServer;
  let nextId = 1000;

  before(async () => {
    repo = tempRepo();
    s = await startRawServer(repo);
  });
  after(() => s.close());

  async function stillServes(): Promise<void> {
    const id = nextId++;
    const answer = await s.request(id, 'tools/call', { name: 'mcp_info', arguments: {} });
    assert.equal(answer.error, undefined, JSON.stringify(answer.error));
    assert.equal(s.exitCode(), undefined, 'the server process must still run');
  }

  test('a frame over the size limit: -32600 with its id, nothing buffered, and the server goes on', async () => {
    const huge = 'x'.repeat(11 * 1024 * 1024);
    s.write(
      `{"jsonrpc":"2.0","id":"huge","method":"tools/call","params":{"name":"mcp_info","arguments":{"a":"${huge}"}}}\n`,
    );
    const answer = await s.answer('huge', 20_000);
    assert.equal(answer.error?.code, INVALID_REQUEST);
    assert.match(answer.error!.message, /message too large: \d+ bytes, at most \d+/);
    await s.stderrMatching(/refused a message \(id "huge"\): -32600/);
    await stillServes();
  });

  test('a frame over the limit that never reveals its id is still refused, and the next line is read', async () => {
    s.write(`{"params":{"a":"${'y'.repeat(5 * 1024 * 1024)}"},"id":"late","jsonrpc":"2.0","method":"ping"}\n`);
    const answer = await s.next((m) => m.id === undefined && /too large/.test(m.error?.message ?? ''), 20_000);
    assert.equal(answer.error?.code, INVALID_REQUEST);
    await stillServes();
  });

  test('invalid JSON: -32700, answered with the id when it could be read before the damage', async () => {
    s.write('{"jsonrpc":"2.0","id":8,"method":"tools/list",\n');
    const withId = await s.answer(8);
    assert.equal(withId.error?.code, PARSE_ERROR);
    s.write('not json at all\n');
    const withoutId = await s.next((m) => m.id === undefined && m.error?.code === PARSE_ERROR);
    assert.match(withoutId.error!.message, /parse error/);
    await stillServes();
  });

  test('non-object arguments and params: "x" are -32602, not a -32603 with a validation dump', async () => {
    const args = await s.request(9, 'tools/call', { name: 'mcp_info', arguments: 'x' });
    assert.equal(args.error?.code, INVALID_PARAMS);
    assert.match(args.error!.message, /params\.arguments/);
    const params = await s.request(10, 'tools/call', 'x');
    assert.equal(params.error?.code, INVALID_PARAMS);
    assert.match(params.error!.message, /"params" must be an object/);
    const init = await s.request(11, 'resources/read', { uri: 42 });
    assert.equal(init.error?.code, INVALID_PARAMS);
    await stillServes();
  });

  test('id: {} and other shapes that are not JSON-RPC requests: -32600', async () => {
    const before = s.messages().length;
    s.write('{"jsonrpc":"2.0","id":{},"method":"tools/list"}\n');
    s.write('[1,2]\n');
    s.write('42\n');
    s.write('{"jsonrpc":"1.0","id":12,"method":"tools/list"}\n');
    const wrongVersion = await s.answer(12);
    assert.equal(wrongVersion.error?.code, INVALID_REQUEST);
    await s.next(() => s.messages().length >= before + 4);
    const refusals = s.messages().slice(before, before + 4);
    assert.deepEqual(
      refusals.map((m) => m.error?.code),
      [INVALID_REQUEST, INVALID_REQUEST, INVALID_REQUEST, INVALID_REQUEST],
    );
    assert.match(refusals[0].error!.message, /"id" must be a string or an integer/);
    await stillServes();
  });

  test('100k-deep nesting: -32602 with the id, and no stack overflow', async () => {
    const depth = 100_000;
    s.write(
      `{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"mcp_info","arguments":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}}\n`,
    );
    const answer = await s.answer(13);
    assert.equal(answer.error?.code, INVALID_PARAMS);
    assert.match(answer.error!.message, /nest deeper than \d+ levels/);
    assert.doesNotMatch(answer.error!.message, /call stack/);
    await stillServes();
  });

  test('over-deep arguments from the SDK client (id after params): refused with its id at once, not left to time out', async () => {
    const c = await connect(repo);
    try {
      let args: Record<string, unknown> = { leaf: 1 };
      for (let i = 0; i < 70; i++) args = { a: args };
      // The client's own timeout is 60 s: an answer without the id would leave the call hanging until then.
      await assert.rejects(
        c.client.callTool({ name: 'mcp_info', arguments: args }, undefined, { timeout: 15_000 }),
        (err: McpError) => {
          assert.equal(err.code, INVALID_PARAMS, err.message);
          assert.match(err.message, /nest deeper than \d+ levels/);
          return true;
        },
      );
      assert.equal(
        (await c.call<{ server: { name: string } }>('mcp_info')).server.name,
        'agent-ledger',
        'the same connection goes on',
      );
    } finally {
      await c.close();
    }
  });

  test('a broken notification gets no answer (JSON-RPC never answers notifications) but a line on stderr', async () => {
    const before = s.messages().length;
    s.write('{"jsonrpc":"2.0","method":"notifications/progress","params":"x"}\n');
    await stillServes();
    assert.equal(s.messages().length, before + 1, 'only the answer to the follow-up request');
    await s.stderrMatching(/refused a message: -32602 "invalid params of notifications\/progress/);
  });

  test('resources/read of a file is a resource error with MCP’s code and reason, not AgentNotFound', async () => {
    const passwd = await s.request(14, 'resources/read', { uri: 'file:///etc/passwd' });
    assert.equal(passwd.error?.code, RESOURCE_NOT_FOUND);
    assert.match(
      passwd.error!.message,
      /file:\/\/\/etc\/passwd is not a resource of this server; it serves workflow:\/\/\{id\}/,
    );
    assert.deepEqual(passwd.error!.data, { uri: 'file:///etc/passwd', reason: 'UnknownResource' });
    const agent = await s.request(15, 'resources/read', { uri: 'agent://nobody' });
    assert.equal(agent.error?.code, RESOURCE_NOT_FOUND);
    assert.deepEqual(
      agent.error!.data,
      { uri: 'agent://nobody', reason: 'AgentNotFound' },
      'no tool error number in a resource error',
    );
    const malformed = await s.request(16, 'resources/read', { uri: 'workflow://abc' });
    assert.equal(malformed.error?.code, INVALID_PARAMS);
    const escape = await s.request(17, 'resources/read', { uri: 'task://%E0%A4%A' });
    assert.equal(escape.error?.code, INVALID_PARAMS);
    await stillServes();
  });

  test('subscribing to a resource that does not exist is refused; one that exists is accepted', async () => {
    const missing = await s.request(18, 'resources/subscribe', { uri: 'workflow://999999' });
    assert.equal(missing.error?.code, RESOURCE_NOT_FOUND);
    assert.equal(missing.error!.data?.reason, 'NotFound');
    const unknown = await s.request(19, 'resources/subscribe', { uri: 'file:///etc/passwd' });
    assert.equal(unknown.error?.code, RESOURCE_NOT_FOUND);
    const memory = await s.request(20, 'resources/subscribe', { uri: 'project://memory' });
    assert.deepEqual(memory.result, {});
    await stillServes();
  });
});

describe('mcp serve started by hand in a terminal', () => {
  const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

  test(
    'says on stderr that it speaks MCP on stdio and how to try it',
    { skip: hasScript ? false : 'needs util-linux `script` for a pseudo-terminal' },
    () => {
      const repo = tempRepo();
      // `script` gives the server a pseudo-terminal as stdin; Ctrl+D (EOT) then ends it.
      const command = quote([process.execPath, cliPath, 'mcp', 'serve', '--workspace', repo]);
      const r = spawnSync('sh', ['-c', `(sleep 2; printf '\\004') | script -qec ${quote([command])} /dev/null`], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /This is an MCP server: it speaks JSON-RPC over stdin\/stdout/);
      assert.match(
        r.stdout,
        new RegExp(`npx @modelcontextprotocol/inspector node \\S*cli\\.js mcp serve --workspace ${repo}`),
      );
      assert.match(r.stdout, /task list --workspace/);
    },
  );

  test('stays quiet about it when a client starts it (stdin is a pipe)', async () => {
    const s = await startRawServer(tempRepo());
    await s.request(1, 'ping');
    await s.close();
    assert.doesNotMatch(s.stderr(), /This is an MCP server/);
  });
});
