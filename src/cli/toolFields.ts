import * as fs from 'node:fs';
import type { z } from 'zod';
import { LedgerError } from '../core/errors';
import { numberArg } from './toolCommand';

/**
 * How a tool's input field is typed on the command line, read from its zod schema so a command
 * never restates a contract: text and numbers as they are (zod refuses a bad one with the MCP
 * tool's words), booleans as `--x` / `--no-x`, lists of words as a repeated option, and anything
 * structured as JSON text (`-` reads it from standard input).
 */
export type FieldKind = 'text' | 'number' | 'boolean' | 'list' | 'json' | 'value';

export interface ToolField {
  name: string;
  kind: FieldKind;
  required: boolean;
  description: string;
  /** Accepted words of an enum (shown in help). */
  choices?: readonly string[];
}

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string>;
  values?: unknown[];
};
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const wrappers = new Set(['optional', 'default', 'nullable', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** The schema under optional/default/nullable wrappers. */
function bare(s: z.ZodType): z.ZodType {
  const def = defOf(s);
  if (wrappers.has(def.type) && def.innerType) return bare(def.innerType);
  if (def.type === 'pipe' && def.in) return bare(def.in);
  return s;
}

function kindOf(s: z.ZodType): { kind: FieldKind; choices?: readonly string[] } {
  const def = defOf(bare(s));
  switch (def.type) {
    case 'string':
      return { kind: 'text' };
    case 'enum':
      return { kind: 'text', choices: Object.values(def.entries ?? {}) };
    case 'literal':
      return { kind: 'text', choices: (def.values ?? []).map(String) };
    case 'number':
    case 'int':
      return { kind: 'number' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'unknown':
    case 'any':
      return { kind: 'value' };
    case 'array': {
      const element = def.element ? defOf(bare(def.element)).type : '';
      return element === 'string' || element === 'enum' ? { kind: 'list' } : { kind: 'json' };
    }
    default:
      return { kind: 'json' };
  }
}

/** The fields of a tool's input schema, in the schema's order. */
export function toolFields(schema: z.ZodObject): ToolField[] {
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => ({
    name,
    ...kindOf(field),
    // As the tool's JSON Schema says it: optional and defaulted fields are not required; z.unknown() is, though it accepts undefined.
    required: (field as unknown as { _zod: { optin?: string } })._zod.optin === undefined,
    description: field.description ?? bare(field).description ?? '',
  }));
}

/** `ttl_ms` → `ttl-ms`, `writeScope` → `write-scope`. */
export function flagName(field: string): string {
  return field
    .replace(/_/g, '-')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase();
}

let stdinTaken = false;

/** JSON text (or `-`: read from standard input, once per command). */
function jsonText(text: string, field: string): string {
  if (text !== '-') return text;
  if (stdinTaken)
    throw new LedgerError('ValidationError', `${field}: standard input was already read for another field`);
  stdinTaken = true;
  return fs.readFileSync(0, 'utf8');
}

function parseJsonOr<T>(text: string, otherwise: T): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return otherwise;
  }
}

/**
 * The argument a command-line value becomes. Text that is not what the field takes goes through
 * unchanged, so the tool's contract refuses it exactly as it refuses an agent's call.
 */
export function fieldValue(field: ToolField, raw: unknown): unknown {
  if (raw === undefined) return undefined;
  switch (field.kind) {
    case 'number':
      return numberArg(String(raw));
    case 'json': {
      const text = jsonText(String(raw), field.name);
      return parseJsonOr(text, text);
    }
    case 'value': {
      // A JSON value when the text is one (`42`, `{"a":1}`, `"quoted"`), else the text itself.
      const text = jsonText(String(raw), field.name);
      return parseJsonOr(text, text);
    }
    default:
      return raw;
  }
}
