import { StoreError } from '../errors';

const cache = new Map<string, string>();
const CACHE_LIMIT = 2000;

/**
 * The domain's SQL with its `?` placeholders numbered for PostgreSQL (`$1`, `$2`, …). A `?`
 * inside a string literal ('…', E'…' with backslash escapes, $tag$…$tag$), a quoted identifier
 * ("…") or a comment (-- …, nested /* … *\/) is left alone. SQLite's numbered `?NNN` form is
 * refused: the domain only writes bare `?`. Results are cached per statement text.
 */
export function toPgPlaceholders(sql: string): string {
  const hit = cache.get(sql);
  if (hit !== undefined) return hit;
  const out = rewrite(sql);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(sql, out);
  return out;
}

function rewrite(sql: string): string {
  let out = '';
  let n = 0;
  let i = 0;
  const len = sql.length;
  while (i < len) {
    const c = sql[i];
    const next = sql[i + 1];
    if (c === '?') {
      if (next !== undefined && next >= '0' && next <= '9')
        throw new StoreError(
          'sql',
          `numbered placeholders (?${next}…) are not supported; use bare ?: ${sql.slice(0, 80)}`,
        );
      out += `$${++n}`;
      i++;
    } else if (c === "'") {
      const escaped = i > 0 && /[eE]/.test(sql[i - 1]) && !isIdentChar(sql[i - 2]);
      const end = quotedEnd(sql, i, "'", escaped);
      out += sql.slice(i, end);
      i = end;
    } else if (c === '"') {
      const end = quotedEnd(sql, i, '"', false);
      out += sql.slice(i, end);
      i = end;
    } else if (c === '-' && next === '-') {
      const nl = sql.indexOf('\n', i);
      const end = nl < 0 ? len : nl;
      out += sql.slice(i, end);
      i = end;
    } else if (c === '/' && next === '*') {
      const end = blockCommentEnd(sql, i);
      out += sql.slice(i, end);
      i = end;
    } else if (c === '$' && !isIdentChar(sql[i - 1])) {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i));
      if (tag) {
        const close = sql.indexOf(tag[0], i + tag[0].length);
        const end = close < 0 ? len : close + tag[0].length;
        out += sql.slice(i, end);
        i = end;
      } else {
        out += c;
        i++;
      }
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Index just past the literal or identifier opened at `start` (doubled quotes escape; with `backslash`, so does `\`). */
function quotedEnd(sql: string, start: number, quote: string, backslash: boolean): number {
  let i = start + 1;
  while (i < sql.length) {
    const c = sql[i];
    if (backslash && c === '\\') {
      i += 2;
    } else if (c === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else {
      i++;
    }
  }
  return sql.length;
}

/** Index just past the block comment opened at `start` (PostgreSQL nests them). */
function blockCommentEnd(sql: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < sql.length) {
    if (sql[i] === '/' && sql[i + 1] === '*') {
      depth++;
      i += 2;
    } else if (sql[i] === '*' && sql[i + 1] === '/') {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else {
      i++;
    }
  }
  return sql.length;
}

function isIdentChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_$]/.test(c);
}
