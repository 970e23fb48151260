import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import { cli } from '../helpers/cli';
import { tempRepo } from '../helpers/tmp';
import { loadCatalog } from '../../src/mcp/catalog';
import { families } from '../../src/mcp/families';

const root = path.resolve(__dirname, '../..');
let empty: string[] = [];
before(async () => {
  const { tools } = await loadCatalog();
  empty = families.filter((f) => !tools.some((t) => t.family === f));
});

/**
 * A family that can be switched on but has no tool yet says so everywhere it is offered — and
 * only such a family: the note is computed from the catalog, and the static texts (README,
 * the setting) are held to it here.
 */
test('families without tools say "no tools yet" in mcp_capabilities, mcp_info, the CLI help, the setting and the README', async () => {
  const c = await connect(
    tempRepo(),
    families.map((f) => `--enable-${f}`),
  );
  try {
    const caps = await c.call<{ namespaces: { name: string; description: string }[] }>('mcp_capabilities');
    for (const f of families)
      assert.equal(
        caps.namespaces.find((n) => n.name === f)?.description.includes('no tools yet'),
        empty.includes(f),
        `mcp_capabilities: ${f}`,
      );
    const info = await c.call<{ families: Record<string, { enabled: boolean; tools: number; description: string }> }>(
      'mcp_info',
    );
    for (const f of families) {
      assert.equal(info.families[f].tools === 0, empty.includes(f), `mcp_info: ${f}`);
      assert.equal(info.families[f].description.includes('no tools yet'), empty.includes(f), `mcp_info: ${f}`);
    }
    assert.match(c.stderr(), new RegExp(`families: .*${empty.map((f) => `${f} \\(no tools yet\\)`).join('.*')}`));
  } finally {
    await c.close();
  }

  const help = cli(['mcp', 'serve', '--help']).stdout.replace(/\s+/g, ' ');
  for (const f of families)
    assert.equal(
      new RegExp(`--enable-${f} expose the ${f} tools \\(no tools yet`).test(help),
      empty.includes(f),
      `mcp serve --help: ${f}`,
    );

  const setting = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).contributes.configuration
    .properties['agentLedger.toolFamilies'];
  families.forEach((f, i) => {
    assert.equal(setting.items.enum[i], f);
    assert.equal(
      setting.items.enumDescriptions[i].includes('no tools yet'),
      empty.includes(f),
      `setting agentLedger.toolFamilies: ${f}`,
    );
  });
  assert.doesNotMatch(JSON.stringify(setting), /seed \d/, 'no seed numbers in what a user reads');

  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const row = readme.split('\n').find((l) => l.startsWith('| `--enable-<family>`')) ?? '';
  for (const f of empty) assert.match(row, new RegExp(`\`${f}\`[^|]*no tools yet`), `README options table: ${f}`);
  if (empty.length === 0)
    assert.doesNotMatch(readme, /no tools yet/, 'README: every family has tools now, drop the note');
});

test('no seed numbers in the CLI help a person reads', () => {
  const help = [
    cli(['--help']),
    ...['task', 'pipeline', 'workflow', 'agent', 'worker', 'session', 'memory', 'mcp'].map((c) => cli([c, '--help'])),
  ]
    .map((r) => r.stdout)
    .join('\n');
  assert.doesNotMatch(help, /seed \d/i);
});
