import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { compactSchema } from '../../../../src/mcp/listing/compactSchema';
import { jsonSchema } from '../../../../src/mcp/listing/liveListing';
import { loadCatalog } from '../../../../src/mcp/catalog';

/**
 * The listed output schemas are rewritten to compile faster in a client (compactSchema.ts). A
 * rewrite may change the text, never the verdict: for every tool of every family, zod's schema
 * and the listed one, each compiled by the MCP SDK client's own validator, agree on a valid
 * answer built from the schema and on every variation of it — each value swapped for the other
 * shapes its schema allows, for null, a string, a number, an integer, a boolean, an object and an
 * array, each property removed, an unknown property added.
 */

type Schema = Record<string, unknown>;
const validator = new AjvJsonSchemaValidator();
const verdict = (schema: Schema, doc: unknown): boolean => validator.getValidator(structuredClone(schema))(doc).valid;

/** Values the schema allows at this place (the first one is the one the base answer uses). */
function samples(schema: unknown, depth = 0): unknown[] {
  if (typeof schema !== 'object' || schema === null || depth > 12) return ['anything'];
  const s = schema as Schema;
  if (Array.isArray(s.enum)) return [...s.enum].sort((a, b) => Number(a === null) - Number(b === null));
  if ('const' in s) return [s.const];
  if (Array.isArray(s.anyOf))
    return (s.anyOf as unknown[])
      .flatMap((b) => samples({ ...s, anyOf: undefined, ...(b as Schema) }, depth + 1))
      .sort((a, b) => Number(a === null) - Number(b === null));
  if (Array.isArray(s.type))
    return (s.type as string[])
      .flatMap((t) => samples({ ...s, type: t }, depth + 1))
      .sort((a, b) => Number(a === null) - Number(b === null));
  switch (s.type) {
    case 'null':
      return [null];
    case 'boolean':
      return [true, false];
    case 'integer':
      return [Math.max(typeof s.minimum === 'number' ? s.minimum : 1, 1)];
    case 'number':
      return [typeof s.minimum === 'number' ? s.minimum + 0.5 : 1.5];
    case 'string':
      return ['x'.repeat(typeof s.minLength === 'number' ? Math.max(1, s.minLength) : 1)];
    case 'array':
      return [[samples(s.items, depth + 1)[0]], []];
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const doc: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(props)) doc[name] = samples(sub, depth + 1)[0];
      if (typeof s.additionalProperties === 'object' && Object.keys(s.additionalProperties as object).length > 0)
        doc.someKey = samples(s.additionalProperties, depth + 1)[0];
      return [doc];
    }
    default:
      return ['anything', 1, null];
  }
}

const junk: unknown[] = [
  null,
  'text',
  '',
  2.5,
  3,
  0,
  -1,
  2 ** 55,
  -(2 ** 55),
  true,
  {},
  [],
  { unexpected: 1 },
  ['text'],
];

/** Values just outside the schema's own bounds. */
function beyond(schema: unknown): unknown[] {
  const s = (typeof schema === 'object' && schema !== null ? schema : {}) as Schema;
  const out: unknown[] = [];
  if (typeof s.minimum === 'number') out.push(s.minimum - 1);
  if (typeof s.maximum === 'number') out.push(s.maximum + 1);
  if (typeof s.minLength === 'number') out.push('x'.repeat(Math.max(0, s.minLength - 1)));
  if (typeof s.maxLength === 'number') out.push('x'.repeat(s.maxLength + 1));
  return out;
}

/** Every place in the base answer, with the schema that judges it. */
function places(
  schema: unknown,
  doc: unknown,
  path: (string | number)[] = [],
): { path: (string | number)[]; schema: unknown }[] {
  const out = [{ path, schema }];
  if (typeof schema !== 'object' || schema === null) return out;
  const s = schema as Schema;
  const branches = [s, ...((s.anyOf as Schema[] | undefined) ?? [])];
  for (const b of branches) {
    if (Array.isArray(doc) && b.items) doc.forEach((item, i) => out.push(...places(b.items, item, [...path, i])));
    if (doc && typeof doc === 'object' && !Array.isArray(doc)) {
      for (const [name, value] of Object.entries(doc)) {
        const sub =
          (b.properties as Record<string, unknown> | undefined)?.[name] ??
          (typeof b.additionalProperties === 'object' ? b.additionalProperties : undefined);
        if (sub) out.push(...places(sub, value, [...path, name]));
      }
    }
  }
  return out;
}

function replaced(doc: unknown, path: (string | number)[], value: unknown | typeof remove): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (value === remove) {
    if (Array.isArray(at)) at.splice(Number(last), 1);
    else delete at[last];
  } else at[last] = value;
  return copy;
}
const remove = Symbol('remove');

test('every listed output schema accepts and refuses exactly what zod’s schema of the contract does', async () => {
  const tools = (await loadCatalog()).tools.filter((t) => t.output);
  assert.ok(tools.length > 80, `every family's tools were walked (${tools.length})`);
  let documents = 0;
  let refused = 0;
  let rewritten = 0;
  for (const tool of tools) {
    const original = jsonSchema(tool.output!, 'output');
    const listed = compactSchema(original) as Schema;
    if (JSON.stringify(listed) !== JSON.stringify(original)) rewritten++;
    const zodCheck = validator.getValidator(structuredClone(original));
    const listedCheck = validator.getValidator(structuredClone(listed));
    const base = samples(original)[0];
    for (const { path, schema } of places(original, base)) {
      const variations: unknown[] = [...samples(schema), ...junk, ...beyond(schema), remove];
      const here = path.reduce<unknown>((at, key) => (at as Record<string | number, unknown>)[key], base);
      if (here && typeof here === 'object' && !Array.isArray(here)) variations.push({ ...here, unexpectedKey: 1 });
      if (Array.isArray(here)) variations.push([...here, ...here]);
      for (const value of variations) {
        const doc = path.length === 0 && value === remove ? {} : replaced(base, path, value);
        const expected = zodCheck(doc).valid;
        assert.equal(
          listedCheck(doc).valid,
          expected,
          `${tool.name} at /${path.join('/')}: ${JSON.stringify(doc).slice(0, 300)}`,
        );
        documents++;
        if (!expected) refused++;
      }
    }
  }
  assert.ok(rewritten > 30, `the rewrites applied to many schemas (${rewritten})`);
  assert.ok(
    documents > 5000 && refused > documents / 4 && documents - refused > 3000,
    `both verdicts were exercised: ${refused} of ${documents} refused`,
  );
});

test('a nullable object, array, enum or string becomes one schema accepting null, and judges the same', () => {
  const nullableObject = {
    anyOf: [
      { type: 'object', properties: { a: { type: 'number' } }, required: ['a'], additionalProperties: false },
      { type: 'null' },
    ],
    description: 'd',
  };
  assert.deepEqual(compactSchema(nullableObject), {
    type: ['object', 'null'],
    properties: { a: { type: 'number' } },
    required: ['a'],
    additionalProperties: false,
    description: 'd',
  });
  for (const doc of [null, { a: 1 }, {}, { a: 1, b: 2 }, 'a', 1, []])
    assert.equal(
      verdict(compactSchema(nullableObject) as Schema, doc),
      verdict(nullableObject, doc),
      JSON.stringify(doc),
    );

  const nullableEnum = { anyOf: [{ type: 'string', enum: ['ai', 'human'] }, { type: 'null' }] };
  assert.deepEqual(compactSchema(nullableEnum), { enum: ['ai', 'human', null] });
  for (const doc of [null, 'ai', 'human', 'robot', 1, {}])
    assert.equal(verdict(compactSchema(nullableEnum) as Schema, doc), verdict(nullableEnum, doc), JSON.stringify(doc));

  const nullableArray = { anyOf: [{ type: 'null' }, { type: 'array', items: { type: 'string' }, minItems: 1 }] };
  assert.deepEqual(compactSchema(nullableArray), { type: ['array', 'null'], items: { type: 'string' }, minItems: 1 });
  for (const doc of [null, [], ['a'], [1], 'a'])
    assert.equal(
      verdict(compactSchema(nullableArray) as Schema, doc),
      verdict(nullableArray, doc),
      JSON.stringify(doc),
    );

  const nullableConst = { anyOf: [{ type: 'string', const: 'x' }, { type: 'null' }] };
  assert.deepEqual(compactSchema(nullableConst), { enum: ['x', null] });
});

test('what could judge null or interact stays as it is', () => {
  const kept = [
    // a branch keyword that applies to every type
    { anyOf: [{ type: 'string', not: { const: '' } }, { type: 'null' }] },
    { anyOf: [{ $ref: '#/$defs/a' }, { type: 'null' }], $defs: { a: { type: 'string' } } },
    // a branch without a single type
    { anyOf: [{ type: ['string', 'number'] }, { type: 'null' }] },
    // three branches, or a null branch with more than its type
    { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
    { anyOf: [{ type: 'string' }, { type: 'null', description: 'none' }] },
    // a keyword beside the anyOf that would meet the branch's properties
    {
      anyOf: [{ type: 'object', properties: { a: { type: 'number' } } }, { type: 'null' }],
      additionalProperties: false,
    },
  ];
  for (const schema of kept) assert.deepEqual(compactSchema(schema), schema, JSON.stringify(schema));
  // An enum with a value of another type keeps its type; objects in an enum keep it too.
  assert.deepEqual(compactSchema({ type: 'string', enum: ['a', 1] }), { type: 'string', enum: ['a', 1] });
  assert.deepEqual(compactSchema({ type: 'object', enum: [{ a: 1 }] }), { type: 'object', enum: [{ a: 1 }] });
  assert.deepEqual(compactSchema({ type: 'integer', enum: [1, 2.5] }), { type: 'integer', enum: [1, 2.5] });
  assert.deepEqual(compactSchema({ type: 'integer', enum: [1, 2] }), { enum: [1, 2] });
});

test('properties named like keywords are names, not keywords', () => {
  const schema = {
    type: 'object',
    properties: {
      type: { type: 'string', enum: ['a'] },
      anyOf: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      propertyNames: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'number' } },
      enum: { type: 'array', items: { type: 'string' } },
    },
    required: ['type', 'anyOf', 'propertyNames', 'enum'],
    additionalProperties: false,
  };
  assert.deepEqual(compactSchema(schema), {
    type: 'object',
    properties: {
      type: { enum: ['a'] },
      anyOf: { type: ['string', 'null'] },
      propertyNames: { type: 'object', additionalProperties: { type: 'number' } },
      enum: { type: 'array', items: { type: 'string' } },
    },
    required: ['type', 'anyOf', 'propertyNames', 'enum'],
    additionalProperties: false,
  });
  assert.deepEqual(compactSchema({ type: 'object', additionalProperties: {} }), { type: 'object' });
});
