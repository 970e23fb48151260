import { test } from 'node:test';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import { z } from 'zod';
import { jsonSchema } from '../../../../src/mcp/listing/liveListing';
import { portableSchema } from '../../../../src/mcp/listing/portableSchema';

/**
 * Each rewrite of portableSchema.ts, on the schema zod writes: the rewritten schema gives, under
 * draft-07 and under 2020-12, the verdict zod's own schema gives under 2020-12 (its draft), on
 * documents that pass and documents that fail.
 */
const draft07 = new Ajv({ strict: true, allErrors: true });
const draft2020 = new Ajv2020({ strict: true, allErrors: true });
const zodDraft = new Ajv2020({ strict: false, allErrors: true });

function sameVerdicts(contract: z.ZodObject, documents: unknown[]): void {
  const zods = jsonSchema(contract, 'input');
  const portable = portableSchema(zods) as Record<string, unknown>;
  const expected = zodDraft.compile(zods);
  for (const [name, ajv] of [
    ['draft-07', draft07],
    ['2020-12', draft2020],
  ] as const) {
    const check = ajv.compile(structuredClone(portable));
    for (const doc of documents)
      assert.equal(check(doc), expected(doc), `${name} on ${JSON.stringify(doc)}: ${JSON.stringify(portable)}`);
  }
}

test('a tuple of one element type becomes items + its length, read alike by both drafts', () => {
  const contract = z.strictObject({ span: z.tuple([z.number().int(), z.number().int()]) });
  assert.deepEqual((portableSchema(jsonSchema(contract, 'input')) as any).properties.span, {
    type: 'array',
    items: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
    minItems: 2,
    maxItems: 2,
  });
  sameVerdicts(contract, [
    { span: [1, 3] },
    { span: [1] },
    { span: [1, 2, 3] },
    { span: ['a', 1] },
    { span: [1.5, 2] },
    { span: [] },
  ]);
});

test('a tuple of several element types keeps its length; each place takes any of its types', () => {
  const contract = z.strictObject({ pair: z.tuple([z.string(), z.number()]) });
  const portable = portableSchema(jsonSchema(contract, 'input')) as any;
  assert.deepEqual(portable.properties.pair.items, { anyOf: [{ type: 'string' }, { type: 'number' }] });
  sameVerdicts(contract, [{ pair: ['a', 1] }, { pair: ['a'] }, { pair: ['a', 1, 2] }, { pair: [true, 1] }]);
});

test('a union of primitive types becomes an anyOf; a type or null stays a type list', () => {
  const contract = z.strictObject({
    value: z.union([z.string(), z.number(), z.boolean()]),
    maybe: z.union([z.string(), z.number(), z.boolean(), z.null()]).describe('or null'),
    nullable: z.string().nullable(),
  });
  const portable = portableSchema(jsonSchema(contract, 'input')) as any;
  assert.deepEqual(portable.properties.value, { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] });
  assert.equal(portable.properties.maybe.description, 'or null');
  assert.equal(portable.properties.maybe.anyOf.length, 4);
  assert.deepEqual(portable.properties.nullable, { type: ['string', 'null'] }, 'Ajv allows a type or null');
  const base = { value: 'a', maybe: null, nullable: null };
  sameVerdicts(contract, [
    base,
    { ...base, value: 1 },
    { ...base, value: false },
    { ...base, value: null },
    { ...base, value: {} },
    { ...base, maybe: 2 },
    { ...base, maybe: [] },
    { ...base, nullable: 'x' },
    { ...base, nullable: 3 },
  ]);
});

test('additionalProperties: {} goes; a record of values keeps its rule', () => {
  const contract = z.strictObject({
    metadata: z.record(z.string(), z.unknown()),
    counts: z.record(z.string(), z.number()),
  });
  const portable = portableSchema(jsonSchema(contract, 'input')) as any;
  assert.equal('additionalProperties' in portable.properties.metadata, false);
  assert.deepEqual(portable.properties.counts.additionalProperties, { type: 'number' });
  assert.equal(portable.additionalProperties, false, 'a strict object stays strict');
  const base = { metadata: { a: 1 }, counts: { a: 1 } };
  sameVerdicts(contract, [
    base,
    { ...base, metadata: { b: [1, 'x'] } },
    { ...base, counts: { a: 'x' } },
    { ...base, extra: 1 },
  ]);
});
