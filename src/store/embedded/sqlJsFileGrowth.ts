/**
 * sql.js keeps the database file in its in-memory file system (emscripten's MEMFS), as one byte
 * array. When SQLite writes past its end, MEMFS allocates a new array an eighth larger and copies
 * the whole file into it, inside one write, once per 12.5% of growth — the slowest write of a long
 * stream (docs/performance.md, "The write that copied the whole database"). Here the
 * file is kept in a resizable ArrayBuffer instead (ES2024; virtual memory reserved, pages committed
 * as the file grows), so growing and truncating happen in place and nothing is copied.
 *
 * The glue is minified; the three places are matched exactly. If any is not found exactly once
 * (another sql.js version), the glue is used as it is — slower to grow, never wrong — and
 * test/unit/store/embedded/sqlJsFileGrowth.test.ts fails for the installed version.
 */

/** A file's new contents of `size` bytes, the first `used` bytes of `old` kept; in place when `old` is resizable. */
const helper = `function __agentLedgerFile(old, used, size) {
  var buffer = old && old.buffer;
  if (buffer && buffer.resizable && old.byteOffset === 0 && size <= buffer.maxByteLength) {
    buffer.resize(size);
    return new Uint8Array(buffer, 0, size);
  }
  var fresh;
  try {
    fresh = new ArrayBuffer(size, { maxByteLength: Math.max(size, 4294967296) });
  } catch (e) {
    fresh = new ArrayBuffer(size);
  }
  var contents = new Uint8Array(fresh, 0, size);
  if (old && used) contents.set(old.subarray(0, Math.min(size, used)));
  return contents;
}
`;

/** [what MEMFS does, what it does instead]: grow on write, the first write of a file, truncate/extend. */
const places: [string, string][] = [
  ['m=a.Ua.subarray(0,a.Wa),a.Ua=new Uint8Array(g),a.Ua.set(m))', 'a.Ua=__agentLedgerFile(a.Ua,a.Wa,g))'],
  ['else a.Ua=b.slice(d,d+c),a.Wa=c;return c}', 'else a.Ua=__agentLedgerFile(b.subarray(d,d+c),c,c),a.Wa=c;return c}'],
  [
    'a.Wa!=b&&(d=a.Ua,a.Ua=new Uint8Array(b),a.Ua.set(d.subarray(0,Math.min(b,\na.Wa))),a.Wa=b)',
    'a.Wa!=b&&(a.Ua=__agentLedgerFile(a.Ua,a.Wa,b),a.Wa=b)',
  ],
];

/** The glue's source with files grown in place, or null when this sql.js is not the one the places were matched on. */
export function withFilesGrownInPlace(glue: string): string | null {
  let source = glue;
  for (const [from, to] of places) {
    if (source.split(from).length !== 2) return null;
    source = source.replace(from, () => to);
  }
  return `${helper}${source}`;
}
