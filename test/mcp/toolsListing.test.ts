import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startRawServer } from '../helpers/rawServer';
import { tempRepo } from '../helpers/tmp';
import { cliPath } from '../helpers/mcpClient';
import { liveListing } from '../../src/mcp/listing/liveListing';
import { readBuiltListing } from '../../src/mcp/listing/builtListing';
import { toolFamilies, introspectionFamily } from '../../src/mcp/catalog';
import { lazyFamilies, lazyIntrospection } from '../../src/mcp/familyCatalog';

/**
 * `mcp serve` lists its tools from the listing the build computed (dist/toolsListing.json) and
 * loads a family's contracts only with its first call. What a client is listed must stay exactly
 * what the contracts say: the built listing equals the one computed from the sources now, and a
 * server with every family on lists every tool, byte for byte, in catalog order.
 */
test('the built tools listing is the one the contracts give', () => {
  const built = readBuiltListing(path.dirname(cliPath));
  assert.ok(built, `${path.dirname(cliPath)}/toolsListing.json is missing: npm run build writes it`);
  assert.deepEqual(
    built,
    JSON.parse(JSON.stringify(liveListing())),
    'dist/toolsListing.json is stale or wrong: run npm run build',
  );
});

test('a server with every family on lists exactly the live listing, and calls tools of a family it loads on demand', async () => {
  const live = liveListing();
  const server = await startRawServer(tempRepo(), ['--enable-pm', '--enable-orchestrator']);
  try {
    const listed = await server.request(1, 'tools/list', {});
    const expected = JSON.parse(JSON.stringify(live.families.flatMap((f) => f.tools)));
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

test('the lazy family list is the catalog: same families, same order, each load giving the catalog family', async () => {
  assert.deepEqual(
    lazyFamilies.map((f) => f.info.name),
    toolFamilies.map((f) => f.name),
  );
  assert.equal(await lazyIntrospection.load(), introspectionFamily);
  for (const [i, f] of lazyFamilies.entries()) {
    const family = await f.load();
    assert.equal(family, toolFamilies[i], f.info.name);
    const { tools: _tools, prompts: _prompts, ...info } = family;
    assert.deepEqual(info, f.info, `${f.info.name}: family.ts and index.ts describe the same family`);
  }
});

test('dist/cliMain.js is pure ASCII (a non-ASCII character makes V8 hold the whole source as two-byte)', () => {
  const bytes = fs.readFileSync(path.join(path.dirname(cliPath), 'cliMain.js'));
  const at = bytes.findIndex((b) => b > 0x7f);
  assert.equal(at, -1, `non-ASCII byte at ${at}: ${bytes.subarray(Math.max(0, at - 60), at + 20).toString()}`);
});
