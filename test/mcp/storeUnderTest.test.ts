// The suite runs on the store it was asked for (`npm run test:pg`: PostgreSQL), so a pass means what it says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import { testStore } from '../helpers/testLedger';
import { tempRepo } from '../helpers/tmp';

test(`the server opens the ${testStore} store, and two processes of one workspace share it`, async () => {
  const repo = tempRepo();
  const a = await connect(repo);
  const b = await connect(repo);
  try {
    const info = await a.call<{ store: { path: string } }>('mcp_info');
    if (testStore === 'postgres') {
      assert.match(info.store.path, /^postgres(ql)?:\/\//);
      assert.ok(
        !info.store.path.includes(process.env.AGENT_LEDGER_TEST_PG_PASSWORD ?? '\0'),
        'no password in mcp_info',
      );
    } else assert.match(info.store.path, /ledger\.db$/);
    const created = await a.call<{ id: number }>('task_create', { title: 'shared' });
    const seen = await b.call<{ id: number; title: string }>('task_get', { id: created.id });
    assert.equal(seen.title, 'shared');
  } finally {
    await a.close();
    await b.close();
  }
});
