import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { fieldValue, flagName, toolFields } from '../../../src/cli/toolFields';
import type { ToolField } from '../../../src/cli/toolFields';

const schema = z.strictObject({
  key: z.string().min(1).describe('Key'),
  value: z.unknown().describe('Any JSON'),
  tags: z.array(z.string()).default([]).describe('Tags'),
  levels: z
    .array(z.enum(['info', 'warn']))
    .optional()
    .describe('Levels'),
  ttl_ms: z.number().int().optional().describe('Lifetime'),
  award: z.boolean().default(true).describe('Award at once'),
  format: z.enum(['json', 'sse']).optional().describe('Form'),
  limits: z.strictObject({ wallclock_ms: z.number() }).optional().describe('Limits'),
  entries: z
    .array(z.strictObject({ key: z.string() }))
    .min(1)
    .describe('Entries'),
  writeScope: z.array(z.string()).optional().describe('Scope'),
});

test('fields are read from the schema: kind, required as the JSON Schema says, choices and description', () => {
  const byName = Object.fromEntries(toolFields(schema).map((f) => [f.name, f]));
  assert.deepEqual(
    Object.fromEntries(Object.entries(byName).map(([n, f]) => [n, `${f.kind}${f.required ? '*' : ''}`])),
    {
      key: 'text*',
      value: 'value*',
      tags: 'list',
      levels: 'list',
      ttl_ms: 'number',
      award: 'boolean',
      format: 'text',
      limits: 'json',
      entries: 'json*',
      writeScope: 'list',
    },
  );
  assert.deepEqual(byName.format.choices, ['json', 'sse']);
  assert.equal(byName.ttl_ms.description, 'Lifetime');
  assert.equal(flagName('ttl_ms'), 'ttl-ms');
  assert.equal(flagName('writeScope'), 'write-scope');
});

test('values: numbers and JSON when they are, else the text itself for the contract to judge', () => {
  const field = (kind: ToolField['kind']): ToolField => ({ name: 'f', kind, required: false, description: '' });
  assert.equal(fieldValue(field('number'), '42'), 42);
  assert.equal(fieldValue(field('number'), 'abc'), 'abc');
  assert.deepEqual(fieldValue(field('json'), '[{"a":1}]'), [{ a: 1 }]);
  assert.equal(fieldValue(field('json'), '{broken'), '{broken');
  assert.equal(fieldValue(field('value'), 'hello world'), 'hello world');
  assert.equal(fieldValue(field('value'), '"42"'), '42');
  assert.equal(fieldValue(field('value'), '42'), 42);
  assert.equal(fieldValue(field('text'), '42'), '42');
  assert.deepEqual(fieldValue(field('list'), ['a', 'b']), ['a', 'b']);
  assert.equal(fieldValue(field('json'), undefined), undefined);
  // The schema then refuses what is not its type, with the MCP tool's words.
  assert.equal(schema.shape.entries.safeParse(fieldValue(field('json'), '{broken')).success, false);
});
