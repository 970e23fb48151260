import YAML from 'yaml';

/** A Markdown file split into its YAML front matter and its body. */
export interface FrontMatterDocument {
  /** The parsed front matter; `{}` when the file has none. */
  data: Record<string, unknown>;
  body: string;
}

const opening = /^\uFEFF?---[ \t]*\r?\n/;
const closing = /^(?:---|\.\.\.)[ \t]*$/m;

/**
 * Parses `---\n<yaml>\n---\n<body>`. A file without an opening `---` line is all body.
 * Throws an Error (with YAML's own message) when the front matter is not a YAML mapping.
 */
export function parseFrontMatter(text: string): FrontMatterDocument {
  const open = opening.exec(text);
  if (!open) return { data: {}, body: text.replace(/^\uFEFF/, '') };
  const rest = text.slice(open[0].length);
  const close = closing.exec(rest);
  if (!close) throw new Error('front matter has no closing "---" line');
  const yamlText = rest.slice(0, close.index);
  // Blank lines between the front matter and the text are layout, not content.
  const body = rest.slice(close.index + close[0].length).replace(/^(?:[ \t]*\r?\n)+/, '');
  const data: unknown = yamlText.trim() === '' ? {} : YAML.parse(yamlText);
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    throw new Error('front matter must be a YAML mapping (key: value lines)');
  return { data: data as Record<string, unknown>, body };
}

/** Writes front matter (keys in the given order, undefined/null left out) followed by the body. */
export function formatFrontMatter(data: Record<string, unknown>, body: string): string {
  const clean = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined && v !== null));
  const yamlText = YAML.stringify(clean, { lineWidth: 0 });
  const text = body.replace(/^\r?\n+/, '');
  return `---\n${yamlText}---\n${text === '' ? '' : `\n${text}${text.endsWith('\n') ? '' : '\n'}`}`;
}

/**
 * Sets top-level keys of a file's front matter and leaves the rest as written: the other keys
 * with their order and comments, the `---` lines and the body byte for byte (a hand-written
 * file stays the person's). A file without front matter gets one. Throws like
 * {@link parseFrontMatter} when the front matter is not a YAML mapping.
 */
export function setFrontMatterFields(text: string, fields: Record<string, string>): string {
  const open = opening.exec(text);
  if (!open) return formatFrontMatter(fields, text.replace(/^\uFEFF/, ''));
  const rest = text.slice(open[0].length);
  const close = closing.exec(rest);
  if (!close) throw new Error('front matter has no closing "---" line');
  const doc = YAML.parseDocument(rest.slice(0, close.index));
  if (doc.errors.length > 0) throw new Error(doc.errors[0].message);
  if (doc.contents !== null && !YAML.isMap(doc.contents))
    throw new Error('front matter must be a YAML mapping (key: value lines)');
  for (const [key, value] of Object.entries(fields)) doc.set(key, value);
  return `${open[0]}${doc.toString({ lineWidth: 0 })}${rest.slice(close.index)}`;
}

/** A front matter field that must be a string when present. */
export function stringField(data: Record<string, unknown>, key: string): string | undefined {
  const value = data[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') throw new Error(`"${key}" must be text`);
  return value;
}
