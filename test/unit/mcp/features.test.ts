import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCatalog } from '../../../src/mcp/catalog';
import type { Catalog } from '../../../src/mcp/catalog';
import { features, featuresOf, isToolExposed, resolveFeatures } from '../../../src/mcp/features';
import { familyInfos, resolveFamilies } from '../../../src/mcp/families';
import { familyFlags, selectedFamilies, serverArgs, shellLine } from '../../../src/vscode/mcp/serverLaunch';

let catalog: Catalog;
before(async () => {
  catalog = await loadCatalog();
});
const allTools = () => catalog.tools;

const exposed = (enable: string[], enableFeatures: string[] = [], disableFeatures: string[] = []) => {
  const fams = resolveFamilies(familyInfos, enable);
  const on = resolveFeatures(fams, enableFeatures, disableFeatures);
  return allTools()
    .filter((t) => t.family === 'introspection' || isToolExposed(t, fams, on))
    .map((t) => t.name);
};

test('every feature a tool names exists, in the tool’s family; every feature but idempotency has a tool', () => {
  for (const t of allTools())
    for (const name of featuresOf(t))
      assert.equal(features.find((f) => f.name === name)?.family, t.family, `${t.name}: ${name}`);
  for (const f of features.filter((f) => f.name !== 'idempotency'))
    assert.ok(
      allTools().some((t) => featuresOf(t).includes(f.name)),
      `${f.name} exposes a tool`,
    );
});

test('the default profile stays under 40 tools and exposes no orchestrator tool', () => {
  const tools = exposed([]);
  assert.ok(tools.length < 40, `${tools.length} tools`);
  assert.ok(!tools.some((t) => t.startsWith('graph_') || t.startsWith('resources_') || t === 'events_subscribe'));
});

test('a family brings its features; a feature alone brings its tools; --disable-<feature> hides them again', () => {
  const all = exposed(['orchestrator']);
  for (const t of ['graph_patch', 'graph_lock', 'resources_watch', 'events_subscribe', 'bb_batch_set', 'graph_mutate'])
    assert.ok(all.includes(t), t);
  const resourcesOnly = exposed([], ['resources']).filter((t) => !t.startsWith('mcp_'));
  assert.deepEqual(
    resourcesOnly.filter((t) => /^(resources|graph|bb|events)_/.test(t)),
    ['resources_list', 'resources_read', 'resources_watch'],
  );
  const noLocks = exposed(['orchestrator'], [], ['locks']);
  assert.ok(!noLocks.includes('graph_lock') && noLocks.includes('graph_patch'));
  const bbWithoutBulk = exposed([], ['blackboard']);
  assert.ok(
    bbWithoutBulk.includes('bb_set') && !bbWithoutBulk.includes('bb_batch_set'),
    'bb_batch_set needs blackboard and bulk',
  );
  assert.throws(() => resolveFeatures(new Set(), ['nonsense']), /unknown feature/);
  assert.ok(resolveFeatures(new Set(), ['blackboard']).has('idempotency'), 'keys are remembered with any feature on');
  assert.ok(!resolveFeatures(new Set(['orchestrator']), [], ['idempotency']).has('idempotency'), 'unless switched off');
  // task_create, start_workflow, start_task and worker_command take keys in every family set.
  assert.ok(resolveFeatures(new Set()).has('idempotency'), 'nothing else on, keys still remembered');
});

test('the editor setting names families and single features; they become serve flags', () => {
  assert.deepEqual(selectedFamilies(['locks', 'tracking', 'resources']), ['tracking', 'resources', 'locks']);
  assert.deepEqual(familyFlags(['tracking', 'tasks', 'pipeline', 'resources']), ['--enable-resources']);
  assert.deepEqual(
    familyFlags(['tracking', 'tasks', 'pipeline', 'orchestrator', 'resources']),
    ['--enable-orchestrator'],
    'the family already has it',
  );
});

test('the copied server command keeps the Node flags readable and still quotes what a shell would read', () => {
  const line = shellLine({
    command: '/usr/bin/node',
    args: serverArgs('/a b/cli.js', '/ws/$HOME', ['tracking', 'tasks', 'pipeline'], '/disk/w=t'),
    env: {},
  });
  assert.equal(
    line,
    "/usr/bin/node --max-semi-space-size=1 '/a b/cli.js' mcp serve --workspace /ws/\\$HOME --worktrees-dir /disk/w=t",
  );
  assert.equal(
    shellLine({ command: '/opt/a=b/node', args: [], env: {} }),
    '/opt/a\\=b/node',
    'the command word is never taken for an assignment',
  );
});
