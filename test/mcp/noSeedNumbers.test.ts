import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { Command } from 'commander';
import { allTools, introspectionFamily, toolFamilies } from '../../src/mcp/catalog';
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

test('no seed numbers in any tool description, field description or family text', () => {
  const texts: Record<string, string> = {};
  for (const tool of allTools()) {
    texts[`${tool.name} description`] = `${tool.title}\n${tool.description}`;
    texts[`${tool.name} input`] = JSON.stringify(z.toJSONSchema(tool.input, { unrepresentable: 'any' }));
    if (tool.output)
      texts[`${tool.name} output`] = JSON.stringify(z.toJSONSchema(tool.output, { unrepresentable: 'any' }));
  }
  for (const family of [introspectionFamily, ...toolFamilies])
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
