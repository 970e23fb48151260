/**
 * A listed schema as both JSON Schema drafts in use read it the same way. zod writes 2020-12, but
 * the MCP SDK 1.x client checks every structuredContent with a draft-07 Ajv, and other clients
 * compile the schemas in Ajv's strict mode. Each rewrite keeps what the schema accepts:
 *
 * - a tuple (`prefixItems` with `items: false`, zod's `z.tuple`) becomes `items` with the one
 *   schema its places share (or their `anyOf`) and its length as `minItems`/`maxItems`: draft-07
 *   does not know `prefixItems`, so it read `items: false` alone and refused every element;
 * - a `type` list of several types besides null (`["string", "number", "boolean"]`, zod's union of
 *   primitives) becomes an `anyOf` of one type each: Ajv's strict mode refuses union types other
 *   than a type or null (`allowUnionTypes`);
 * - `additionalProperties: {}` goes: any other property was allowed already.
 *
 * test/mcp/schemaPortability.test.ts compiles the whole listing, every family on, under both
 * drafts in strict mode; test/unit/mcp/listing/portableSchema.test.ts checks each rewrite on
 * documents that pass and fail.
 */
import { annotations, isSchemaObject, mapSubschemas } from './schemaWalk';
import type { JsonSchema } from './schemaWalk';

export function portableSchema(schema: unknown): unknown {
  if (!isSchemaObject(schema)) return schema;
  return withoutEmptyAdditional(withoutUnionType(withoutTuple(mapSubschemas(schema, portableSchema))));
}

/** `prefixItems` + `items: false` → `items` (the places' one schema, or their anyOf) + the tuple's length. */
function withoutTuple(schema: JsonSchema): JsonSchema {
  const places = schema.prefixItems;
  if (!Array.isArray(places) || places.length === 0 || schema.items !== false) return schema;
  const distinct: unknown[] = [];
  for (const p of places) if (!distinct.some((d) => JSON.stringify(d) === JSON.stringify(p))) distinct.push(p);
  const { prefixItems: _places, ...rest } = schema;
  return {
    ...rest,
    items: distinct.length === 1 ? distinct[0] : { anyOf: distinct },
    minItems: Math.max(Number(schema.minItems ?? 0), places.length),
    maxItems: Math.min(Number(schema.maxItems ?? places.length), places.length),
  };
}

/** `type: [a, b, …]` with two or more types besides null, and nothing else but annotations → `anyOf` of one type each. */
function withoutUnionType(schema: JsonSchema): JsonSchema {
  const types = schema.type;
  if (!Array.isArray(types) || types.filter((t) => t !== 'null').length < 2) return schema;
  if (!Object.keys(schema).every((key) => key === 'type' || annotations.has(key))) return schema;
  const { type: _types, ...rest } = schema;
  return { ...rest, anyOf: types.map((type: unknown) => ({ type })) };
}

function withoutEmptyAdditional(schema: JsonSchema): JsonSchema {
  const extra = schema.additionalProperties;
  if (!isSchemaObject(extra) || Object.keys(extra).length > 0 || 'unevaluatedProperties' in schema) return schema;
  const { additionalProperties: _any, ...rest } = schema;
  return rest;
}
