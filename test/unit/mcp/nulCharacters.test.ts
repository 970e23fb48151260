import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { loadCatalog } from '../../../src/mcp/catalog';
import type { CatalogTool } from '../../../src/mcp/toolDefinition';
import { LedgerError } from '../../../src/core/errors';
import { fieldIssue, parseInput } from '../../../src/core/contracts/inputValidation';

/**
 * PostgreSQL cannot hold U+0000 in text and SQLite can: every tool refuses it at the edge, the same
 * way on both stores, naming the field. Checked over every string a tool's input schema reaches.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema | false;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
};

/** Paths (property names and array indexes) of every string the schema reaches, and the schema's own strings. */
function stringPaths(schema: JsonSchema, at: Array<string | number> = [], depth = 0): Array<Array<string | number>> {
  if (depth > 8) return [];
  const out: Array<Array<string | number>> = [];
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.includes('string')) out.push(at);
  for (const [key, sub] of Object.entries(schema.properties ?? {}))
    out.push(...stringPaths(sub, [...at, key], depth + 1));
  if (schema.items && typeof schema.items === 'object') out.push(...stringPaths(schema.items, [...at, 0], depth + 1));
  (schema.prefixItems ?? []).forEach((sub, i) => out.push(...stringPaths(sub, [...at, i], depth + 1)));
  for (const sub of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) out.push(...stringPaths(sub, at, depth + 1));
  return out;
}

/** An argument object holding `value` at `path` (arrays and objects made on the way). */
function argsWith(path: Array<string | number>, value: unknown): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let node: Record<string | number, unknown> = root;
  path.forEach((key, i) => {
    if (i === path.length - 1) node[key] = value;
    else node = (node[key] = typeof path[i + 1] === 'number' ? [] : {}) as Record<string | number, unknown>;
  });
  return root;
}

test('every string every tool accepts refuses U+0000 with a ValidationError naming the field', async () => {
  const allTools = (await loadCatalog()).tools;
  let checked = 0;
  const missed: string[] = [];
  for (const tool of allTools) {
    const schema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    const seen = new Set<string>();
    for (const path of stringPaths(schema)) {
      const field = path.map(String).join('.');
      if (path.length === 0 || seen.has(field)) continue;
      seen.add(field);
      checked++;
      try {
        parseInput(tool.name, tool.input, argsWith(path, 'before\u0000after'));
        missed.push(`${tool.name} ${field}: accepted`);
      } catch (err) {
        const named = LedgerError.is(err, 'ValidationError') && err.message.includes(`${field}: must not contain`);
        if (!named || err.data?.field !== field) missed.push(`${tool.name} ${field}: ${(err as Error).message}`);
      }
    }
  }
  assert.ok(checked > 300, `only ${checked} string fields found: the schema walk is broken`);
  assert.deepEqual(missed, []);
});

test('U+0000 in a key of a free-form value, deep in an array, or typed in an input box is refused too', async () => {
  const allTools: readonly CatalogTool[] = (await loadCatalog()).tools;
  const bbSet = allTools.find((t) => t.name === 'bb_set');
  assert.ok(bbSet);
  assert.throws(
    () => parseInput('bb_set', bbSet.input, { key: 'plan:a', value: { notes: [{ 'ke\u0000y': 1 }] } }),
    (err: unknown) =>
      LedgerError.is(err, 'ValidationError') &&
      /value\.notes\.0: must not contain the NUL character/.test(err.message) &&
      err.data?.field === 'value.notes.0',
  );
  const taskCreate = allTools.find((t) => t.name === 'task_create');
  assert.ok(taskCreate);
  assert.match(fieldIssue(taskCreate.input, 'title', 'a\u0000b') ?? '', /^title: must not contain the NUL character/);
  assert.equal(fieldIssue(taskCreate.input, 'title', 'fine'), undefined);
  // Other control characters are text like any other.
  assert.doesNotThrow(() => parseInput('bb_set', bbSet.input, { key: 'plan:a', value: 'tab\there\u0001' }));
});
