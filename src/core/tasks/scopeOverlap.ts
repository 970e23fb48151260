import { areaMatcher } from './scopeCheck';
import { literalHead, shapeOf } from './scopePatterns';
import type { ScopeShape, Segment } from './scopePatterns';

/**
 * Could two write scopes touch the same file? The rule is sound: it never answers "disjoint"
 * when some path matches a pattern of each side (with `areaMatcher`, the matcher complete_task
 * uses). Patterns become segment sequences (scopePatterns.ts) and two sequences overlap when
 * some path could match both, segment by segment, `**` standing for any number of segments:
 *  - two literal segments must be equal (ignoring case when a bare word is involved);
 *  - a literal and a wildcard segment are tested exactly with picomatch;
 *  - two wildcard segments are compatible when their literal prefixes (before the first special
 *    character) and suffixes (after the last one) agree — `*.ts` and `*.md` cannot meet;
 *  - braces and extglobs are not followed: from there on the pattern counts as `**`.
 * So literal paths compare exactly, and anything unsure answers "overlap".
 *
 * Bare words (`auth`, `README.md`: no `/`, no glob character) are labels, not "any path that
 * could hold this segment" — under that reading a word would overlap nearly everything. A word
 * overlaps:
 *  - the same word, ignoring case (`auth` / `AUTH`);
 *  - a path or glob that names it as one of its literal segments, ignoring case, or as a file
 *    stem (`src/auth/**`, `lib/Auth/index.ts`, `src/auth.ts`, `src/auth.test.ts`);
 *  - a glob that names no literal segment at all (`**`, `*.ts`): the whole tree.
 * So `auth` and `api` are disjoint, and so are `auth` and `src/**` or `src/api/*.ts`. This is
 * the one place the rule is not sound against `areaMatcher` (`src/api/auth.ts` matches both
 * `auth` and `src/api/*.ts`): a label names an area on purpose, and only what names it meets it.
 */

/** A pair of patterns, one from each side, that may match the same file. */
export interface OverlapPair {
  left: string;
  right: string;
}

/** Do two single patterns possibly match a common path? */
export function patternsOverlap(left: string, right: string): boolean {
  return shapesOverlap(shapeOf(left), shapeOf(right));
}

/**
 * The pattern pairs through which two write scopes may touch the same file, in input order;
 * empty when they cannot. An empty scope writes nothing and overlaps nothing. Excludes are not
 * subtracted: leaving them out can only add overlaps, never hide one.
 */
export function scopeOverlaps(left: readonly string[], right: readonly string[]): OverlapPair[] {
  const pairs: OverlapPair[] = [];
  for (const l of left) {
    for (const r of right) if (patternsOverlap(l, r)) pairs.push({ left: l, right: r });
  }
  return pairs;
}

/** Do two write scopes possibly overlap? */
export function scopesOverlap(left: readonly string[], right: readonly string[]): boolean {
  return left.some((l) => right.some((r) => patternsOverlap(l, r)));
}

function shapesOverlap(a: ScopeShape, b: ScopeShape): boolean {
  if (a.word !== undefined && b.word !== undefined) return a.word === b.word;
  if (a.word !== undefined) return namesWord(b, a.word);
  if (b.word !== undefined) return namesWord(a, b.word);
  const nocase = a.nocase || b.nocase;
  for (const x of a.sequences) {
    for (const y of b.sequences) if (!headsDiverge(x, y, nocase) && sequencesMeet(x, y, nocase)) return true;
  }
  return false;
}

/** Does a path or glob name `word` (lower-cased) as a literal segment or file stem, or name no literal segment at all? */
function namesWord(shape: ScopeShape, word: string): boolean {
  return shape.sequences.some((seq) => {
    const literals = seq.flatMap((s) => (s.kind === 'literal' ? [s.text.toLowerCase()] : []));
    return literals.length === 0 || literals.some((text) => text === word || text.startsWith(`${word}.`));
  });
}

/** Fast path: two leading literal segments at the same place that differ settle it. */
function headsDiverge(a: readonly Segment[], b: readonly Segment[], nocase: boolean): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x.kind !== 'literal' || y.kind !== 'literal') return false;
    if (x.text !== y.text && (!nocase || x.text.toLowerCase() !== y.text.toLowerCase())) return true;
  }
  return false;
}

/** Can some sequence of path segments match both `a` and `b`? (memoised walk over both positions) */
function sequencesMeet(a: readonly Segment[], b: readonly Segment[], nocase: boolean): boolean {
  const seen = new Map<number, boolean>();
  const walk = (i: number, j: number): boolean => {
    const key = i * (b.length + 1) + j;
    const known = seen.get(key);
    if (known !== undefined) return known;
    seen.set(key, false);
    let result: boolean;
    if (i === a.length && j === b.length) result = true;
    else if (i < a.length && a[i].kind === 'any') result = walk(i + 1, j) || (j < b.length && walk(i, j + 1));
    else if (j < b.length && b[j].kind === 'any') result = walk(i, j + 1) || (i < a.length && walk(i + 1, j));
    else if (i === a.length || j === b.length) result = false;
    else result = segmentsMeet(a[i], b[j], nocase) && walk(i + 1, j + 1);
    seen.set(key, result);
    return result;
  };
  return walk(0, 0);
}

function segmentsMeet(x: Segment, y: Segment, nocase: boolean): boolean {
  const fold = (s: string) => (nocase ? s.toLowerCase() : s);
  if (x.kind === 'literal' && y.kind === 'literal') return fold(x.text) === fold(y.text);
  if (x.kind === 'literal' && y.kind === 'glob') return y.test(x.text, nocase);
  if (x.kind === 'glob' && y.kind === 'literal') return x.test(y.text, nocase);
  if (x.kind === 'glob' && y.kind === 'glob') {
    const [px, py, sx, sy] = [fold(x.prefix), fold(y.prefix), fold(x.suffix), fold(y.suffix)];
    return (px.startsWith(py) || py.startsWith(px)) && (sx.endsWith(sy) || sy.endsWith(sx));
  }
  return true;
}

/**
 * Does `outer` certainly contain everything `inner` matches? A heuristic for how well an agent's
 * scope fits a task (never used to decide a conflict): true for equal patterns, for `**`, and
 * when `outer` is a folder (`src/auth`, `src/auth/**`) that `inner`'s literal head lies under.
 */
export function patternCovers(outer: string, inner: string): boolean {
  if (outer.trim() === inner.trim()) return true;
  const o = shapeOf(outer);
  const i = shapeOf(inner);
  if (o.nocase || o.sequences.length !== 1) return false;
  const seq = o.sequences[0];
  const head = literalHead(seq);
  const isFolder = seq.length === head.length + 1 && seq[seq.length - 1].kind === 'any';
  if (!isFolder) return false;
  if (i.sequences.length === 0) return true;
  if (i.nocase) return head.length === 0;
  return i.sequences.every((s) => {
    const innerHead = literalHead(s);
    return innerHead.length >= head.length && head.every((seg, k) => innerHead[k] === seg);
  });
}

/** An agent's write permission: what it may change, minus what it must never touch. */
export interface WriteScopeRule {
  write: readonly string[];
  exclude: readonly string[];
}

/** Is one path inside a write scope (a `write` pattern matches and no `exclude` one does)? */
export function pathInScope(scope: WriteScopeRule, path: string): boolean {
  return scope.write.some((p) => areaMatcher(p)(path)) && !scope.exclude.some((p) => areaMatcher(p)(path));
}

/** Splits changed files into those inside a write scope and those outside it (both sorted). */
export function filesInScope(scope: WriteScopeRule, files: readonly string[]): { inside: string[]; outside: string[] } {
  const write = scope.write.map(areaMatcher);
  const exclude = scope.exclude.map(areaMatcher);
  const inside: string[] = [];
  const outside: string[] = [];
  for (const file of [...new Set(files)].sort()) {
    (write.some((m) => m(file)) && !exclude.some((m) => m(file)) ? inside : outside).push(file);
  }
  return { inside, outside };
}
