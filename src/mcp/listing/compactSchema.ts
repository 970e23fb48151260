import { annotations, isSchemaObject, mapSubschemas } from './schemaWalk';
import type { JsonSchema } from './schemaWalk';

/**
 * An output schema as tools/list gives it: the JSON schema zod computes from the contract,
 * rewritten into an equivalent one that costs a client less to compile. The MCP SDK's client
 * compiles an Ajv validator for every listed outputSchema as soon as it lists the tools
 * (docs/performance.md, "Start-up"); every rewrite here accepts exactly the same documents:
 *
 * - `anyOf: [X, {type: "null"}]` (zod's `.nullable()` of an object, array or enum) becomes X
 *   with `"null"` added to its type (and to its enum): object, array, string and number keywords
 *   only apply to values of their type, so null passes them as it passed the second branch —
 *   one check instead of two branches with their error bookkeeping;
 * - `type` beside an `enum` (or `const`) whose values all have that type: the enum alone says it;
 * - `propertyNames: {type: "string"}`: every property name is a string;
 * - `additionalProperties: {}`: any other property was allowed already.
 *
 * Nothing that constrains a value is dropped: `required`, `additionalProperties: false`, bounds
 * and enums stay. test/unit/mcp/listing/compactSchema.test.ts checks each rewrite with Ajv on documents
 * that pass and fail, and test/mcp/outputSchemas.test.ts that every default tool's answer still
 * validates through the real SDK client.
 */
export function compactSchema(schema: unknown): unknown {
  if (!isSchemaObject(schema)) return schema;
  return withoutImpliedType(withoutNoOps(mergedNullable(mapSubschemas(schema, compactSchema))));
}

/** Keywords that constrain only values of one type (a value of another type passes them). */
const keywordsOfType: Record<string, ReadonlySet<string>> = {
  object: new Set([
    'properties',
    'required',
    'additionalProperties',
    'patternProperties',
    'propertyNames',
    'minProperties',
    'maxProperties',
    'dependentRequired',
    'dependentSchemas',
  ]),
  array: new Set([
    'items',
    'prefixItems',
    'minItems',
    'maxItems',
    'uniqueItems',
    'contains',
    'minContains',
    'maxContains',
  ]),
  string: new Set(['minLength', 'maxLength', 'pattern', 'format']),
  number: new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']),
  integer: new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']),
  boolean: new Set(),
};
const noKeywords: ReadonlySet<string> = new Set();
/** `anyOf: [X, {type: "null"}]` → X accepting null too, when X's keywords all leave null alone. */
function mergedNullable(schema: JsonSchema): JsonSchema {
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return schema;
  const nullAt = branches.findIndex((b) => isSchemaObject(b) && Object.keys(b).length === 1 && b.type === 'null');
  if (nullAt < 0) return schema;
  const other = branches[1 - nullAt];
  if (!isSchemaObject(other)) return schema;
  // One type whose own keywords null passes, or no type but an enum or const (its type already dropped below).
  const own =
    typeof other.type === 'string'
      ? keywordsOfType[other.type]
      : other.type === undefined && ('enum' in other || 'const' in other)
        ? noKeywords
        : undefined;
  if (!own) return schema;
  const merged: JsonSchema = {};
  for (const [key, value] of Object.entries(other)) {
    if (key === 'type') merged.type = [other.type, 'null'];
    else if (key === 'enum' && Array.isArray(value)) merged.enum = value.includes(null) ? value : [...value, null];
    else if (key === 'const') merged.enum = value === null ? [null] : [value, null];
    else if (own.has(key) || annotations.has(key)) merged[key] = value;
    else return schema; // a keyword that would judge null too (anyOf, $ref, not…): left as it is
  }
  const { anyOf: _anyOf, ...rest } = schema;
  // Beside the anyOf only annotations (zod puts a field's description there; it wins over the branch's):
  // a keyword of its own could interact with the branch's once merged (additionalProperties with properties).
  if (!Object.keys(rest).every((key) => annotations.has(key))) return schema;
  return { ...merged, ...rest };
}

/** Keywords that allow what was allowed anyway. */
function withoutNoOps(schema: JsonSchema): JsonSchema {
  const out = { ...schema };
  if (
    isSchemaObject(out.propertyNames) &&
    Object.keys(out.propertyNames).length === 1 &&
    out.propertyNames.type === 'string'
  )
    delete out.propertyNames;
  if (
    isSchemaObject(out.additionalProperties) &&
    Object.keys(out.additionalProperties).length === 0 &&
    !('unevaluatedProperties' in out)
  )
    delete out.additionalProperties;
  return out;
}

/** `type` beside an enum or const whose every value has that type. */
function withoutImpliedType(schema: JsonSchema): JsonSchema {
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
  if (!values || schema.type === undefined) return schema;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (!values.every((v) => types.some((t) => hasType(v, t)))) return schema;
  const { type: _type, ...rest } = schema;
  return rest;
}

function hasType(value: unknown, type: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    default:
      return false; // objects and arrays in an enum keep their type keyword
  }
}
