/**
 * The MCP server lists its tools before it opens the ledger (docs/performance.md): the store is
 * opened by the first call that needs it. A ledger that cannot open therefore no longer stops the
 * server: the tools are listed, bad arguments are refused as bad arguments, and every call that
 * needs the ledger says why it cannot open, call after call, with nothing written anywhere.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import { startRawServer } from '../helpers/rawServer';
import { tempDir, tempRepo } from '../helpers/tmp';
import { testStore } from '../helpers/testLedger';

const embeddedOnly =
  testStore === 'postgres' ? 'the ledger lives on PostgreSQL: there are no store files to link' : false;

describe('a server that opens its ledger on first use', () => {
  test('a fresh workspace: the tools are listed, the first write opens the ledger and is kept', async () => {
    const repo = tempRepo({ 'README.md': '# app\n' });
    const c = await connect(repo);
    try {
      const { tools } = await c.client.listTools();
      assert.ok(
        tools.some((t) => t.name === 'task_create'),
        'task_create is listed',
      );
      const created = await c.call<{ id: number }>('task_create', { title: 'first write of a fresh server' });
      const got = await c.call<{ id: number; title: string }>('task_get', { id: created.id });
      assert.equal(got.title, 'first write of a fresh server');
    } finally {
      await c.close();
    }
    const again = await connect(repo);
    try {
      const list = await again.call<{ tasks: { title: string }[] }>('task_list');
      assert.deepEqual(
        list.tasks.map((t) => t.title),
        ['first write of a fresh server'],
        'a restarted server reads the write back',
      );
    } finally {
      await again.close();
    }
  });

  test(
    'a ledger that cannot open: tools listed, bad input refused first, each call says why, nothing written outside',
    { skip: embeddedOnly },
    async () => {
      const repo = tempRepo({ 'README.md': '# app\n' });
      const out = tempDir('agent-ledger-outside-');
      fs.symlinkSync(out, path.join(repo, '.agent-ledger'));
      const c = await connect(repo);
      try {
        const { tools } = await c.client.listTools();
        assert.ok(tools.length > 0, 'the tools are listed although the ledger cannot open');
        const invalid = await c.fail('task_create', { title: '' });
        assert.equal(invalid.reason, 'ValidationError', 'bad arguments are refused before the ledger is opened');
        for (let i = 0; i < 2; i++) {
          const refused = await c.fail('task_create', { title: 'never written' });
          assert.equal(refused.reason, 'ConfigError', `call ${i + 1}: ${JSON.stringify(refused)}`);
          assert.equal(refused.data?.reason, 'pathOutsideWorkspace');
        }
        assert.deepEqual(fs.readdirSync(out), [], 'nothing is written through the link');
      } finally {
        await c.close();
      }
    },
  );
});

describe('when the ledger opens by itself', () => {
  test(
    'a client that lists the tools and calls nothing finds its ledger opened soon after',
    { skip: embeddedOnly },
    async () => {
      const repo = tempRepo({ 'README.md': '# app\n' });
      const server = await startRawServer(repo);
      try {
        const listed = await server.request(1, 'tools/list', {});
        assert.ok(Array.isArray(listed.result?.tools));
        const store = path.join(repo, '.agent-ledger', 'ledger.journal');
        const deadline = Date.now() + 15_000;
        while (!fs.existsSync(store) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        assert.ok(fs.existsSync(store), 'the ledger was opened (its store created) without any call');
      } finally {
        await server.close();
      }
    },
  );
});
