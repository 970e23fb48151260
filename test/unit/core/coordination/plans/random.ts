/** A seeded pseudo-random generator (LCG) so property-style loops are reproducible. */
export function seeded(seed: number): { next(): number; int(max: number): number; pick<T>(items: readonly T[]): T } {
  let s = seed >>> 0 || 1;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  return { next, int: (max) => Math.floor(next() * max), pick: (items) => items[Math.floor(next() * items.length)] };
}

/** A random string mixing plain text with the characters SSE and JSON care about. */
export function nastyString(r: ReturnType<typeof seeded>, maxLength = 24): string {
  const alphabet = [
    'a',
    'Z',
    '0',
    ' ',
    '"',
    '\\',
    '/',
    '\r',
    '\n',
    '\r\n',
    '\u2028',
    '\u2029',
    '\t',
    '\u0000',
    'é',
    '😀',
    'data: x',
    '\n\n',
    ':',
  ];
  let out = '';
  const n = r.int(maxLength);
  for (let i = 0; i < n; i++) out += r.pick(alphabet);
  return out;
}
