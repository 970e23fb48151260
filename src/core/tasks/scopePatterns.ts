import picomatch from 'picomatch';

/**
 * Scope patterns (task areas, agent write scopes) in the language `areaMatcher` matches them
 * (core/tasks/scopeCheck.ts), turned into sequences of path segments so two patterns can be
 * compared without listing files:
 *  - a glob (has * ? [ ] { }) is matched by picomatch over the whole path;
 *  - a path (has a /) matches itself and everything under it;
 *  - a bare word matches a whole segment anywhere, or a file whose name starts with `word.`,
 *    ignoring case.
 * Every shape over-approximates what the pattern matches (never the other way round), so a
 * rule built on them can say "overlap" wrongly but never "disjoint" wrongly.
 */

/** One segment of a pattern. `any` is `**`: zero or more whole segments. */
export type Segment =
  | { kind: 'any' }
  | { kind: 'literal'; text: string }
  | {
      kind: 'glob';
      /** Literal text every matching segment starts with (before the first special character). */
      prefix: string;
      /** Literal text every matching segment ends with (after the last special character). */
      suffix: string;
      /** Exact test of one segment (`nocase` when the other side ignores case). */
      test: (segment: string, nocase: boolean) => boolean;
    };

/** A pattern as alternative segment sequences; a path matches the pattern if it matches one. */
export interface ScopeShape {
  /** The pattern as written. */
  source: string;
  /** Bare words ignore case. */
  nocase: boolean;
  /** The word, lower-cased, when the pattern is a bare word (no `/`, no glob character). */
  word?: string;
  sequences: Segment[][];
}

const anySegment: Segment = { kind: 'any' };
/** Characters picomatch may give a meaning to inside a segment. */
const special = /[*?[\]{}()!+@|]/;
/** Constructs whose extent this model does not follow (braces, extglobs): everything from there on is `**`. */
const opaque = /[{}()|]/;

/** `areaMatcher`'s own normalisation, so both sides read a pattern the same way. */
export function normalisePattern(pattern: string): string {
  return pattern.trim().replace(/\\/g, '/').replace(/^\.\//, '');
}

/** Does `areaMatcher` read this pattern as a glob? */
export function isGlobPattern(pattern: string): boolean {
  return /[*?[\]{}]/.test(pattern);
}

const shapeCache = new Map<string, ScopeShape>();

/** The segment shape of one pattern (cached: scopes repeat a lot in a scheduling pass). */
export function shapeOf(pattern: string): ScopeShape {
  let shape = shapeCache.get(pattern);
  if (!shape) {
    shape = computeShape(pattern);
    if (shapeCache.size > 50_000) shapeCache.clear(); // a field of 10k+ marked paths must not thrash it
    shapeCache.set(pattern, shape);
  }
  return shape;
}

function computeShape(source: string): ScopeShape {
  const a = normalisePattern(source);
  if (isGlobPattern(a)) return { source, nocase: false, sequences: [globSequence(a)] };
  if (a.includes('/')) {
    const segments = a.split('/').filter((s) => s.length > 0);
    return { source, nocase: false, sequences: [[...segments.map(literal), anySegment]] };
  }
  const word = a.toLowerCase();
  if (word.length === 0) return { source, nocase: true, sequences: [] };
  const stem: Segment = {
    kind: 'glob',
    prefix: `${word}.`,
    suffix: '',
    test: (s) => s.toLowerCase().startsWith(`${word}.`),
  };
  return {
    source,
    nocase: true,
    word,
    sequences: [
      [anySegment, literal(word), anySegment],
      [anySegment, stem],
    ],
  };
}

function literal(text: string): Segment {
  return { kind: 'literal', text };
}

/** Splits a glob on `/`; from the first segment this model cannot follow, the rest is `**`. */
function globSequence(glob: string): Segment[] {
  if (glob.startsWith('!')) return [anySegment];
  const out: Segment[] = [];
  for (const segment of splitSegments(glob)) {
    if (segment === null) {
      out.push(anySegment);
      break;
    }
    if (segment.length === 0) continue;
    out.push(segment === '**' ? anySegment : special.test(segment) ? globSegment(segment) : literal(segment));
  }
  return collapseAny(out);
}

/** Segments of a glob, with `null` standing for "the rest cannot be split reliably". */
function splitSegments(glob: string): (string | null)[] {
  const segments: (string | null)[] = [];
  let current = '';
  let inClass = false;
  for (const ch of glob) {
    if (inClass) {
      if (ch === '/') return [...segments, null];
      if (ch === ']') inClass = false;
      current += ch;
    } else if (ch === '[') {
      inClass = true;
      current += ch;
    } else if (opaque.test(ch)) {
      return [...segments, null];
    } else if (ch === '/') {
      segments.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  segments.push(inClass ? null : current);
  return segments;
}

function globSegment(text: string): Segment {
  const first = text.search(special);
  let last = -1;
  for (let i = text.length - 1; i >= 0; i--) {
    if (special.test(text[i])) {
      last = i;
      break;
    }
  }
  const exact = picomatch(text, { dot: true });
  const loose = picomatch(text, { dot: true, nocase: true });
  return {
    kind: 'glob',
    prefix: text.slice(0, first),
    suffix: text.slice(last + 1),
    test: (s, nocase) => (nocase ? loose(s) : exact(s)),
  };
}

function collapseAny(segments: Segment[]): Segment[] {
  return segments.filter((s, i) => !(s.kind === 'any' && i > 0 && segments[i - 1].kind === 'any'));
}

/** Literal segments a sequence starts with (up to the first wildcard). */
export function literalHead(sequence: readonly Segment[]): string[] {
  const head: string[] = [];
  for (const s of sequence) {
    if (s.kind !== 'literal') break;
    head.push(s.text);
  }
  return head;
}
