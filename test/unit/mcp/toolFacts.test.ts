import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCatalog } from '../../../src/mcp/catalog';
import type { Catalog } from '../../../src/mcp/catalog';
import { WAIT_MS_MAX } from '../../../src/core/contracts/callOptions';

/**
 * A tool says on itself whether it waits and whether it is idempotent (`waits`, `idempotent` on
 * defineTool); nothing keeps lists of them. These hold each fact to the tool's own contract, so a
 * new tool that waits or takes an idempotency key without saying so (or the reverse) fails here.
 */
let catalog: Catalog;
before(async () => {
  catalog = await loadCatalog();
});

test('a tool waits exactly when its input takes a bounded wait_ms', () => {
  const waiting = catalog.tools.filter((t) => t.waits).map((t) => t.name);
  assert.ok(waiting.length >= 7, waiting.join(', '));
  for (const tool of catalog.tools) {
    assert.equal('wait_ms' in tool.input.shape, tool.waits === true, `${tool.name}: waits ⇔ wait_ms`);
    if (!tool.waits) continue;
    const field = tool.input.shape.wait_ms as { safeParse(v: unknown): { success: boolean } };
    assert.equal(field.safeParse(WAIT_MS_MAX).success, true, tool.name);
    assert.equal(field.safeParse(WAIT_MS_MAX + 1).success, false, `${tool.name}: a wait ends before 60 s`);
  }
});

test('a tool is idempotent exactly when it takes idempotency_key and answers with the replay envelope', () => {
  const idempotent = catalog.tools.filter((t) => t.idempotent).map((t) => t.name);
  assert.ok(idempotent.length >= 4, idempotent.join(', '));
  for (const tool of catalog.tools) {
    const takesKey = 'idempotency_key' in tool.input.shape;
    const answers = tool.output !== undefined && 'idempotent' in tool.output.shape;
    assert.equal(takesKey && answers, tool.idempotent === true, `${tool.name}: idempotent ⇔ key and envelope`);
  }
});

test('every tool names the family whose folder lists it, once', () => {
  const names = catalog.tools.map((t) => t.name);
  assert.equal(new Set(names).size, names.length, 'a tool name is used twice');
  for (const family of [catalog.introspection, ...catalog.families])
    for (const tool of family.tools) assert.equal(tool.family, family.name, tool.name);
});
