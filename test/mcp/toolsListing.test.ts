import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startRawServer } from '../helpers/rawServer';
import { tempRepo } from '../helpers/tmp';
import { cliPath, connect } from '../helpers/mcpClient';
import { liveListing } from '../../src/mcp/listing/liveListing';
import { readBuiltListing } from '../../src/mcp/listing/builtListing';
import { loadCatalog, loadFamily } from '../../src/mcp/catalog';
import { familyInfos, introspectionInfo } from '../../src/mcp/families';

/**
 * `mcp serve` lists its tools from the listing the build computed (dist/toolsListing.json) and
 * loads a family's contracts only with its first call. What a client is listed must stay exactly
 * what the contracts say: the built listing equals the one computed from the sources now, and a
 * server with every family on lists every tool, byte for byte, in catalog order.
 */
test('the built tools listing is the one the contracts give', async () => {
  const built = readBuiltListing(path.dirname(cliPath));
  assert.ok(built, `${path.dirname(cliPath)}/toolsListing.json is missing: npm run build writes it`);
  assert.deepEqual(
    built,
    JSON.parse(JSON.stringify(await liveListing())),
    'dist/toolsListing.json is stale or wrong: run npm run build',
  );
});

/** Answered but not listed to agents (the lean surface): deprecated, the runner's, the agent PM's names of tasks tools. */
const unlisted = [
  'health_check',
  'list_active_projects_with_agents',
  'should_start',
  'get_pending_tasks',
  'report_execution_start',
  'report_execution_complete',
  'list_agents',
  'list_tasks',
  'get_task',
  'update_task_status',
];

test('a server with every family on lists exactly the live listing, and calls tools of a family it loads on demand', async () => {
  const live = await liveListing();
  const server = await startRawServer(tempRepo(), ['--enable-pm', '--enable-orchestrator']);
  try {
    const listed = await server.request(1, 'tools/list', {});
    const expected = JSON.parse(
      JSON.stringify(live.families.flatMap((f) => f.tools).filter((t) => !unlisted.includes(t.name))),
    );
    assert.deepEqual(listed.result?.tools, expected);
    // A tool of a family not yet loaded runs (its contract validates), and so does introspection over every family.
    const created = await server.request(2, 'tools/call', {
      name: 'task_create',
      arguments: { title: 'listed, then loaded' },
    });
    assert.equal(created.result?.isError, undefined, JSON.stringify(created.result));
    const refused = await server.request(3, 'tools/call', { name: 'bb_set', arguments: { key: 1 } });
    assert.equal(refused.result?.isError, true);
    assert.match(JSON.stringify(refused.result), /invalid arguments for bb_set/);
    const caps = await server.request(4, 'tools/call', { name: 'mcp_capabilities', arguments: {} });
    const content = caps.result?.structuredContent as {
      namespaces: { name: string }[];
      schemas: Record<string, unknown>;
    };
    assert.deepEqual(Object.keys(content.schemas).sort(), expected.map((t: { name: string }) => t.name).sort());
    const unknown = await server.request(5, 'tools/call', { name: 'no_such_tool', arguments: {} });
    assert.equal(unknown.result, undefined);
    assert.equal(unknown.error?.code, -32602);
    assert.match(unknown.error?.message ?? '', /unknown tool .{1,6}no_such_tool/);
  } finally {
    await server.close();
  }
});

test('the lean surface: unlisted tools still answer; --list-deprecated and --list-runner-tools list them; a twin is listed when its tasks tool is off', async () => {
  const repo = tempRepo();
  const names = async (args: string[]): Promise<{ tools: string[]; instructions: string }> => {
    const c = await connect(repo, args);
    try {
      const listed = await c.client.listTools();
      await c.call('health_check');
      await c.call('list_agents');
      assert.equal((await c.fail('get_pending_tasks', { session_token: 'nope' })).reason, 'Unauthorized');
      return { tools: listed.tools.map((t) => t.name), instructions: c.client.getInstructions() ?? '' };
    } finally {
      await c.close();
    }
  };
  const lean = await names(['--enable-pm']);
  for (const t of unlisted) assert.ok(!lean.tools.includes(t), `${t} is not listed`);
  for (const t of [
    'authenticate',
    'get_my_task',
    'report_completed',
    'task_get',
    'task_list',
    'agent_list',
    'task_update',
  ])
    assert.ok(lean.tools.includes(t), `${t} is listed`);
  assert.match(lean.instructions, /get_task \(like task_get\)/, 'the instructions name the unlisted twins');
  assert.ok(lean.instructions.split('\n').length >= 5, 'a line per enabled family');

  const deprecated = await names(['--enable-pm', '--list-deprecated']);
  assert.deepEqual(deprecated.tools.filter((t) => !lean.tools.includes(t)).sort(), [
    'get_pending_tasks',
    'report_execution_complete',
    'report_execution_start',
  ]);
  const runner = await names(['--enable-pm', '--list-runner-tools']);
  assert.deepEqual(runner.tools.filter((t) => !lean.tools.includes(t)).sort(), [
    'health_check',
    'list_active_projects_with_agents',
    'should_start',
  ]);
  const pmAlone = await names(['--enable-pm', '--disable-tasks']);
  for (const t of ['get_task', 'list_tasks', 'list_agents', 'update_task_status'])
    assert.ok(pmAlone.tools.includes(t), `${t} is listed while its tasks twin is off`);
  assert.doesNotMatch(pmAlone.instructions, /like task_get/);
});

test('the one family list is the catalog: same families, same order, each load giving the catalog family', async () => {
  const catalog = await loadCatalog();
  assert.deepEqual(
    familyInfos.map((f) => f.name),
    catalog.families.map((f) => f.name),
  );
  assert.equal(await loadFamily(introspectionInfo), catalog.introspection);
  for (const [i, f] of familyInfos.entries()) {
    const family = await loadFamily(f);
    assert.equal(family, catalog.families[i], f.name);
    const { tools: _tools, prompts: _prompts, ...info } = family;
    assert.deepEqual(info, f, `${f.name}: family.ts and index.ts describe the same family`);
    for (const tool of family.tools) assert.equal(tool.family, f.name, `${tool.name} names its family`);
  }
});

test('dist/cliMain.js is pure ASCII (a non-ASCII character makes V8 hold the whole source as two-byte)', () => {
  const bytes = fs.readFileSync(path.join(path.dirname(cliPath), 'cliMain.js'));
  const at = bytes.findIndex((b) => b > 0x7f);
  assert.equal(at, -1, `non-ASCII byte at ${at}: ${bytes.subarray(Math.max(0, at - 60), at + 20).toString()}`);
});
