import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { z } from 'zod';
import { orchestratorContracts } from '../../../../src/core/coordination/orchestratorContracts';
import type { OrchestratorToolName } from '../../../../src/core/coordination/orchestratorContracts';
import { loadCatalog } from '../../../../src/mcp/catalog';
import { WAIT_MS_DEFAULT, WAIT_MS_MAX } from '../../../../src/core/contracts/callOptions';

// The tools that wait and the idempotent ones say so on themselves (`waits`, `idempotent`): these contracts' own.
let waitingTools: OrchestratorToolName[] = [];
let idempotentTools: OrchestratorToolName[] = [];
before(async () => {
  const tools = (await loadCatalog()).tools.filter((t) => t.name in orchestratorContracts);
  waitingTools = tools.filter((t) => t.waits).map((t) => t.name as OrchestratorToolName);
  idempotentTools = tools.filter((t) => t.idempotent).map((t) => t.name as OrchestratorToolName);
});

type Schema = z.ZodType & { _zod: { def: any } };

/** Every object field in `schema`, recursively, with its path. */
function fields(
  schema: Schema,
  path: string,
  out: Array<{ path: string; schema: Schema }> = [],
  seen = new Set<unknown>(),
): typeof out {
  if (seen.has(schema)) return out;
  seen.add(schema);
  const def = schema._zod.def;
  switch (def.type) {
    case 'object':
      for (const [key, child] of Object.entries(def.shape as Record<string, Schema>)) {
        out.push({ path: `${path}.${key}`, schema: child });
        fields(child, `${path}.${key}`, out, seen);
      }
      break;
    case 'optional':
    case 'nullable':
    case 'default':
      fields(def.innerType, path, out, seen);
      break;
    case 'array':
      fields(def.element, `${path}[]`, out, seen);
      break;
    case 'union':
      (def.options as Schema[]).forEach((o, i) => fields(o, `${path}|${i}`, out, seen));
      break;
    case 'record':
      fields(def.valueType, `${path}{}`, out, seen);
      break;
  }
  return out;
}

test('every field of every orchestrator contract is described, and no description names a design document', () => {
  let count = 0;
  for (const [tool, contract] of Object.entries(orchestratorContracts)) {
    for (const side of ['input', 'output'] as const) {
      for (const f of fields(contract[side] as unknown as Schema, `${tool}.${side}`)) {
        count++;
        const description = f.schema.description;
        assert.ok(description && description.length > 3, `${f.path} is described`);
        assert.doesNotMatch(description, /seed|self-codex/i, f.path);
      }
    }
  }
  assert.ok(count > 300, `walked ${count} fields`);
});

test('contracts are strict: an unknown field is refused', () => {
  for (const [tool, contract] of Object.entries(orchestratorContracts)) {
    const r = contract.input.safeParse({ surely_not_a_field: 1 });
    assert.equal(r.success, false, tool);
    assert.ok(
      r.error!.issues.some((i) => i.code === 'unrecognized_keys'),
      tool,
    );
  }
});

test('the bounds of the tool contracts', () => {
  const c = orchestratorContracts;
  const ok = (s: z.ZodType, v: unknown) => assert.equal(s.safeParse(v).success, true, JSON.stringify(v).slice(0, 120));
  const no = (s: z.ZodType, v: unknown) => assert.equal(s.safeParse(v).success, false, JSON.stringify(v).slice(0, 120));
  ok(c.resources_list.input, { prefix: 'sc://graphs/', limit: 500 });
  no(c.resources_list.input, { limit: 501 });
  no(c.resources_list.input, { prefix: '   ' });
  ok(c.resources_watch.input, { uri: 'sc://runs/r/events', from_seq: 0, limit: 500, format: 'sse' });
  no(c.resources_watch.input, { uri: 'sc://runs/r/events', format: 'xml' });
  no(c.resources_watch.input, { uri: 'sc://runs/r/events', from_seq: -1 });
  const entry = { key: 'k', value: 1 };
  ok(c.bb_batch_set.input, { entries: Array.from({ length: 100 }, () => entry) });
  no(c.bb_batch_set.input, { entries: Array.from({ length: 101 }, () => entry) });
  no(c.bb_batch_set.input, { entries: [] });
  ok(c.bb_set.input, { ...entry, tags: Array.from({ length: 16 }, (_, i) => `t${i}`), ttl_ms: 86_400_000 });
  no(c.bb_set.input, { ...entry, tags: Array.from({ length: 17 }, (_, i) => `t${i}`) });
  no(c.bb_set.input, { ...entry, ttl_ms: 0 });
  no(c.bb_set.input, { ...entry, ttl_ms: 86_400_001 });
  assert.deepEqual(c.bb_set.input.parse(entry).tags, []);
  const op = [{ op: 'remove_node', id: 'a' }];
  ok(c.graph_batch_mutate.input, {
    graph_id: 'g',
    operations: op,
    expected_version: 0,
    owner: 'o'.repeat(120),
    note: 'n'.repeat(240),
    idempotency_key: 'k',
  });
  no(c.graph_batch_mutate.input, { graph_id: 'g', operations: op, owner: 'o'.repeat(121) });
  no(c.graph_batch_mutate.input, { graph_id: 'g', operations: op, note: 'n'.repeat(241) });
  no(c.graph_batch_mutate.input, { graph_id: 'g', operations: [] });
  no(c.graph_batch_mutate.input, { graph_id: 'g', operations: [{ op: 'rewrite', rule: 'split_parallel' }] });
  assert.equal(
    c.graph_patch.input.parse({ graph_id: 'g', patch: [{ op: 'remove', path: '/nodes/a' }] }).enforce_invariants,
    true,
  );
  ok(c.graph_patch.input, {
    graph_id: 'g',
    base_version: 3,
    patch: [
      { op: 'move', from: '/nodes/a', path: '/nodes/b' },
      { op: 'test', path: '/name', value: 'x' },
    ],
  });
  no(c.graph_patch.input, { graph_id: 'g', patch: [{ op: 'move', path: '/nodes/b' }] });
  no(c.graph_patch.input, { graph_id: 'g', patch: [{ op: 'frobnicate', path: '/x' }] });
  ok(c.graph_lock.input, { graph_id: 'g', holder: 'h'.repeat(120), ttl_ms: 86_400_000 });
  no(c.graph_lock.input, { graph_id: 'g', holder: 'h', ttl_ms: 86_400_001 });
  no(c.graph_lock.input, { graph_id: 'g', holder: ' ' });
  ok(c.graph_diff.input, { graph_id: 'g', from: { latest: true }, to: { version: 2 } });
  ok(c.graph_diff.input, { graph_id: 'g', from: { graph: { nodes: [{ id: 'a' }], edges: [] } }, to: { latest: true } });
  no(c.graph_diff.input, { graph_id: 'g', from: { latest: false }, to: { version: 2 } });
  ok(c.events_subscribe.input, {
    cats: ['graph'],
    levels: ['info'],
    run_id: 'r',
    from_seq: 3,
    limit: 500,
    format: 'sse',
  });
  no(c.events_subscribe.input, { format: 'json' });
});

test('every waiting call takes a bounded wait_ms that defaults below the 60 s client limit', () => {
  assert.ok(WAIT_MS_DEFAULT < 60_000 && WAIT_MS_MAX < 60_000 && WAIT_MS_DEFAULT <= WAIT_MS_MAX);
  const minimal: Record<string, unknown> = {
    resources_watch: { uri: 'sc://runs/r/events' },
    events_subscribe: {},
    bb_watch: {},
  };
  for (const tool of waitingTools) {
    const input = orchestratorContracts[tool].input;
    assert.equal((input.parse(minimal[tool]) as { wait_ms: number }).wait_ms, WAIT_MS_DEFAULT, tool);
    assert.equal(input.safeParse({ ...(minimal[tool] as object), wait_ms: WAIT_MS_MAX }).success, true, tool);
    assert.equal(input.safeParse({ ...(minimal[tool] as object), wait_ms: WAIT_MS_MAX + 1 }).success, false, tool);
    assert.equal(input.safeParse({ ...(minimal[tool] as object), wait_ms: -1 }).success, false, tool);
  }
  for (const [tool, contract] of Object.entries(orchestratorContracts)) {
    if (!(waitingTools as readonly string[]).includes(tool))
      assert.equal('wait_ms' in contract.input.shape, false, tool);
  }
});

test('idempotent tools take idempotency_key and answer with the replay envelope; every result has op_id', () => {
  for (const tool of idempotentTools) {
    const { input, output } = orchestratorContracts[tool];
    assert.ok('idempotency_key' in input.shape, tool);
    assert.ok('idempotent' in output.shape && 'idempotency_key' in output.shape, tool);
  }
  for (const [tool, contract] of Object.entries(orchestratorContracts)) {
    if (tool.startsWith('resources_') || tool === 'events_subscribe') continue;
    assert.ok('op_id' in contract.output.shape, tool);
  }
});
