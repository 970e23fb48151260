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
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new Error('front matter must be a YAML mapping (key: value lines)');
  return { data: data as Record<string, unknown>, body };
}

/** Writes front matter (keys in the given order, undefined/null left out) followed by the body. */
export function formatFrontMatter(data: Record<string, unknown>, body: string): string {
  const clean = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined && v !== null));
  const yamlText = YAML.stringify(clean, { lineWidth: 0 });
  const text = body.replace(/^\r?\n+/, '');
  return `---\n${yamlText}---\n${text === '' ? '' : `\n${text}${text.endsWith('\n') ? '' : '\n'}`}`;
}

/** A front matter field that must be a string when present. */
export function stringField(data: Record<string, unknown>, key: string): string | undefined {
  const value = data[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') throw new Error(`"${key}" must be text`);
  return value;
}
