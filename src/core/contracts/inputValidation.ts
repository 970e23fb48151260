import type { z } from 'zod';
import { LedgerError } from '../errors';

/**
 * Validation of a tool's arguments against its zod schema, shared by the MCP server and the
 * CLI so both refuse the same input with the same message
 * (`invalid arguments for task_create: priority: expected one of "low" | … (got "urgent")`).
 */
export function parseInput<S extends z.ZodObject>(toolName: string, schema: S, input: unknown): z.infer<S> {
  const nul = nulCharacterAt(input);
  if (nul !== undefined)
    throw new LedgerError('ValidationError', `invalid arguments for ${toolName}: ${nulIssue(nul)}`, { field: nul });
  const parsed = schema.safeParse(withoutClientArguments(schema, input ?? {}));
  if (!parsed.success) throw invalidArguments(toolName, schema, parsed.error.issues, input);
  return parsed.data;
}

/**
 * Arguments a client adds to every tool call on its own, which no tool of ours takes: dropped
 * before validation instead of refused, each only with the type the client sends. Gemini CLI adds
 * a boolean `wait_for_previous` to every tool's schema and its system prompt tells the model to
 * set it on a call that depends on an earlier one; it passes it on unchanged (docs/agent-clients.md).
 * An allow-list, not a hole: only these names, only at the top level, only when the tool does not
 * declare the field itself; any other unknown field is still refused.
 */
export const clientAddedArguments: Readonly<Record<string, (value: unknown) => boolean>> = {
  wait_for_previous: (value) => typeof value === 'boolean',
};

function withoutClientArguments(schema: z.ZodObject, input: unknown): unknown {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
  let out: Record<string, unknown> | undefined;
  for (const [name, accepts] of Object.entries(clientAddedArguments)) {
    if (!(name in input) || name in schema.shape || !accepts((input as Record<string, unknown>)[name])) continue;
    out ??= { ...(input as Record<string, unknown>) };
    delete out[name];
  }
  return out ?? input;
}

export function invalidArguments(
  toolName: string,
  schema: z.ZodObject,
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
): LedgerError {
  return new LedgerError(
    'ValidationError',
    `invalid arguments for ${toolName}: ${describeIssues(schema, issues, input)}`,
  );
}

/**
 * What {@link parseInput} would say about one field alone (`title: must not be empty`), or
 * undefined when the value is accepted: the editor's input boxes check a field as it is typed,
 * with the schema and the words the MCP tool and the CLI use.
 */
export function fieldIssue(schema: z.ZodObject, field: string, value: unknown): string | undefined {
  const fieldSchema = schema.shape[field] as z.ZodType | undefined;
  if (!fieldSchema) throw new Error(`the schema has no field "${field}"`);
  const nul = nulCharacterAt({ [field]: value });
  if (nul !== undefined) return nulIssue(nul);
  const parsed = fieldSchema.safeParse(value);
  if (parsed.success) return undefined;
  const issues = parsed.error.issues.map((issue) => ({ ...issue, path: [field, ...issue.path] }));
  return describeIssues(schema, issues, { [field]: value });
}

/**
 * The path (`outcome.achievements.2`) of the first string or object key of `input` holding U+0000,
 * or undefined. PostgreSQL cannot store the character in text and SQLite can: every argument of
 * every tool is refused with it here, so both stores see the same input (a value's key names the
 * object holding it).
 */
export function nulCharacterAt(input: unknown, path: readonly (string | number)[] = []): string | undefined {
  if (typeof input === 'string') return input.includes('\u0000') ? path.join('.') || '(arguments)' : undefined;
  if (input === null || typeof input !== 'object') return undefined;
  if (Array.isArray(input)) {
    for (let i = 0; i < input.length; i++) {
      const found = nulCharacterAt(input[i], [...path, i]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, value] of Object.entries(input)) {
    if (key.includes('\u0000')) return path.join('.') || '(arguments)';
    const found = nulCharacterAt(value, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

function nulIssue(field: string): string {
  return `${field}: must not contain the NUL character (U+0000); no store keeps it in text`;
}

/**
 * Turns zod issues into one message that says, per field, what was wrong and what is
 * accepted, e.g. `status: expected one of "success" | "partial_success" | "failed" (got "done")`.
 */
export function describeIssues(schema: z.ZodObject, issues: readonly z.core.$ZodIssue[], input: unknown): string {
  return issues.map((issue) => describeIssue(schema, issue, input)).join('; ');
}

function describeIssue(schema: z.ZodObject, issue: z.core.$ZodIssue, input: unknown): string {
  const path = issue.path.map(String).join('.') || '(arguments)';
  const got = valueAt(input, issue.path);
  switch (issue.code) {
    case 'invalid_value':
      return `${path}: expected one of ${issue.values.map((v) => JSON.stringify(v)).join(' | ')} (got ${show(got)})`;
    case 'unrecognized_keys': {
      const accepted = issue.path.length === 0 ? Object.keys(schema.shape) : [];
      return `${path}: unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}${accepted.length ? ` (accepted: ${accepted.join(', ')})` : ''}`;
    }
    case 'invalid_type':
      if (got === undefined) return `${path}: is required (${issue.expected})`;
      return `${path}: expected ${issue.expected} (got ${show(got)})`;
    case 'invalid_union': {
      // e.g. an id that may be a number or a string: say both, not zod's "Invalid input".
      const expected = [
        ...new Set(issue.errors.flat().flatMap((e) => (e.code === 'invalid_type' ? [e.expected] : []))),
      ].join(' or ');
      if (got === undefined) return `${path}: is required${expected ? ` (${expected})` : ''}`;
      return `${path}: ${expected ? `expected ${expected}` : issue.message} (got ${show(got)})`;
    }
    case 'too_small':
      if (issue.origin === 'string') return `${path}: must not be empty`;
      return `${path}: must be ${issue.inclusive === false ? '>' : '≥'} ${String(issue.minimum)} (got ${show(got)})`;
    case 'too_big':
      if (issue.origin === 'string') return `${path}: is too long (at most ${String(issue.maximum)} characters)`;
      if (issue.origin === 'array') return `${path}: has too many items (at most ${String(issue.maximum)})`;
      return `${path}: must be ${issue.inclusive === false ? '<' : '≤'} ${String(issue.maximum)} (got ${show(got)})`;
    default:
      return `${path}: ${issue.message}`;
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
