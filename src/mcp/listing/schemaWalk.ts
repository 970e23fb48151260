/** A JSON schema object (a boolean schema is left to the caller). */
export type JsonSchema = Record<string, unknown>;

/** Keywords whose value is a map of schemas (keys are names, not keywords). */
const schemaMaps = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is a list of schemas. */
const schemaLists = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
/** Keywords whose value is one schema. */
const schemaValues = new Set([
  'items',
  'additionalProperties',
  'additionalItems',
  'not',
  'propertyNames',
  'contains',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
]);

/** Keywords that never decide whether a value passes. */
export const annotations: ReadonlySet<string> = new Set([
  'description',
  'title',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
]);

/** The schema with `f` applied to each of its direct sub-schemas (the rest copied as it is). */
export function mapSubschemas(schema: JsonSchema, f: (sub: unknown) => unknown): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (schemaMaps.has(key) && isSchemaObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, f(sub)]));
    else if (schemaLists.has(key) && Array.isArray(value)) out[key] = value.map(f);
    else if (schemaValues.has(key)) out[key] = f(value);
    else out[key] = value;
  }
  return out;
}

export function isSchemaObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
