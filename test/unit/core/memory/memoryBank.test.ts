// What the editor's Memory Bank view stands on: archiving an entry in its file and in the index.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createServices } from '../../../../src/app/services';
import { LedgerError } from '../../../../src/core/errors';
import { tempRepo, writeFiles } from '../../../helpers/tmp';

test('MemoryBank.setStatus archives an entry in its file and in the index', async () => {
  const repo = tempRepo();
  const services = await createServices({ workspace: repo });
  try {
    await services.memory.add({
      id: 'test-framework',
      category: 'tooling',
      title: 'Test framework',
      summary: 'Vitest',
      content: '# Why\nFast.\n',
    });
    const file = path.join(repo, '.agent-ledger/memory/tooling/test-framework.md');
    const archived = await services.memory.setStatus('tooling', 'test-framework', 'archived');
    assert.equal(archived.status, 'archived');
    assert.equal(
      fs.readFileSync(file, 'utf8'),
      '---\ntitle: Test framework\nsummary: Vitest\nstatus: archived\n---\n\n# Why\nFast.\n',
    );
    assert.equal(services.memory.current({ status: 'archived' }).memories[0]?.id, 'test-framework');
    assert.doesNotMatch(
      (await services.memory.preview()).context,
      /Test framework/,
      'archived entries are not given to agents',
    );
    const indexed = await services.engine.read((db) =>
      db.get<{ status: string }>("SELECT status FROM memories WHERE category = 'tooling' AND id = 'test-framework'"),
    );
    assert.equal(indexed?.status, 'archived');
    const event = await services.engine.read((db) =>
      db.get<{ kind: string; payload: string }>("SELECT kind, payload FROM events WHERE kind = 'memory.updated'"),
    );
    assert.deepEqual(JSON.parse(event!.payload), {
      title: 'Test framework',
      status: 'archived',
      previousStatus: 'active',
    });
    // Again: nothing to change, nothing written.
    const mtime = fs.statSync(file).mtimeMs;
    await services.memory.setStatus('tooling', 'test-framework', 'archived');
    assert.equal(fs.statSync(file).mtimeMs, mtime);

    await assert.rejects(services.memory.setStatus('tooling', 'nope', 'archived'), (e: unknown) =>
      LedgerError.is(e, 'NotFound'),
    );
    await assert.rejects(services.memory.setStatus('..', 'x', 'archived'), (e: unknown) =>
      LedgerError.is(e, 'NotFound'),
    );
    writeFiles(repo, { '.agent-ledger/memory/rule/broken.md': '---\nstatus: final\n---\n' });
    await assert.rejects(
      services.memory.setStatus('rule', 'broken', 'archived'),
      (e: unknown) => LedgerError.is(e, 'ConfigError') && /status/.test((e as Error).message),
    );
  } finally {
    await services.dispose();
  }
});
