import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { Command } from 'commander';
import { loadCatalog } from '../../src/mcp/catalog';
import { buildProgram } from '../../src/cli/program';

const root = path.resolve(__dirname, '../..');
/** The seed documents are the project's history, not something a user reads: texts say what a thing does instead. */
const seedNumber = /seed\s*0\d\d/i;

function offenders(texts: Record<string, string>): string[] {
  return Object.entries(texts)
    .filter(([, text]) => seedNumber.test(text))
    .map(([where, text]) => `${where}: ${seedNumber.exec(text)?.[0]}`);
}

function allCommands(cmd: Command, trail: string[] = []): { trail: string[]; cmd: Command }[] {
  return [{ trail, cmd }, ...cmd.commands.flatMap((c) => allCommands(c, [...trail, c.name()]))];
}

test('no seed numbers in any tool description, field description or family text', async () => {
  const { introspection, families, tools } = await loadCatalog();
  const texts: Record<string, string> = {};
  for (const tool of tools) {
    texts[`${tool.name} description`] = `${tool.title}\n${tool.description}`;
    texts[`${tool.name} input`] = JSON.stringify(z.toJSONSchema(tool.input, { unrepresentable: 'any' }));
    if (tool.output)
      texts[`${tool.name} output`] = JSON.stringify(z.toJSONSchema(tool.output, { unrepresentable: 'any' }));
  }
  for (const family of [introspection, ...families])
    texts[`family ${family.name}`] = `${family.description}\n${family.instructions ?? ''}`;
  assert.ok(Object.keys(texts).length > 20, 'the catalog was walked');
  assert.deepEqual(offenders(texts), []);
});

test('no seed numbers in the --help of any agent-ledger command', async () => {
  const commands = allCommands(await buildProgram());
  assert.ok(commands.length > 30, `every command was walked (${commands.length})`);
  const texts = Object.fromEntries(
    commands.map(({ trail, cmd }) => [`agent-ledger ${trail.join(' ')} --help`, cmd.helpInformation()]),
  );
  assert.deepEqual(offenders(texts), []);
});

test('no seed numbers in package.json contributions (settings, commands, views) or the README', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    description: string;
    contributes: Record<string, unknown>;
  };
  const texts: Record<string, string> = { 'package.json description': pkg.description };
  for (const [key, value] of Object.entries(pkg.contributes))
    texts[`package.json contributes.${key}`] = JSON.stringify(value);
  texts['README.md'] = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  texts['docs/mcp-tools.md'] = fs.readFileSync(path.join(root, 'docs/mcp-tools.md'), 'utf8');
  assert.deepEqual(offenders(texts), []);
});

/** Every source file under `dir`, with its path from the repository root. */
function sources(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    return e.isDirectory() ? sources(rel) : /\.(ts|mjs)$/.test(e.name) ? [rel] : [];
  });
}

test('no seed numbers in the source either, comments included: a contract is named by what it does', () => {
  const files = [...sources('src'), ...sources('webview-ui')];
  assert.ok(files.length > 300, `every source file was read (${files.length})`);
  const texts = Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')]));
  assert.deepEqual(offenders(texts), []);
});

test('what a family.ts says of other files names files that exist', () => {
  const mcp = new Set(sources('src/mcp').map((f) => path.basename(f)));
  for (const file of sources('src/mcp/tools').filter((f) => f.endsWith('family.ts'))) {
    const named = fs.readFileSync(path.join(root, file), 'utf8').match(/\b\w+\.ts\b/g) ?? [];
    for (const name of named) assert.ok(mcp.has(name), `${file} names ${name}, which does not exist`);
  }
});
