/** Parses a JSON column; `fallback` for NULL (columns are written by us, so never invalid). */
export function fromJson<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string' || text === '') return fallback;
  return JSON.parse(text) as T;
}

/** Serialises a value for a JSON column; NULL for undefined/null. */
export function toJson(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}
