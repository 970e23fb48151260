/**
 * Ledger text comes from agents, and a terminal obeys control characters: a title holding
 * `ESC ]0;…BEL` retitles the window, `ESC [2J` clears it, a newline breaks a table row. Every
 * human-readable output of the CLI therefore shows such characters instead of sending them —
 * `ESC` as `␛`, a newline in a one-line field as `⏎` — through the functions of this file, while
 * `--json` prints the text exactly (JSON escapes it).
 *
 * Our own styling travels as private-use markers that only {@link toTerminal} turns into SGR
 * sequences (or drops, without colour), so it is never confused with what the data contains.
 */

const MARK_OPEN = '\uE000';
const MARK_CLOSE = '\uE001';
const markers = /\uE000(\d+(?:;\d+)*)\uE001/g;

/** Characters a terminal may act on, and our markers: C0, DEL, C1, bidi overrides and isolates, line/paragraph separators. */
const unsafe = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029\uE000\uE001]/g;

function picture(c: string, keep: { newline: boolean; tab: boolean }): string {
  const code = c.charCodeAt(0);
  if (c === '\n') return keep.newline ? '\n' : '⏎';
  if (c === '\t') return keep.tab ? '\t' : '␉';
  if (code < 0x20) return String.fromCharCode(0x2400 + code); // ␀ … ␛ … ␟
  if (code === 0x7f) return '␡';
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Ledger text for one line (a title, a table cell): every control character shown, a newline
 * as `⏎`, a tab as `␉`. The one function every CLI formatter passes ledger text through.
 */
export function visible(text: string | null | undefined): string {
  if (text === null || text === undefined) return '';
  return text.replace(unsafe, (c) => picture(c, { newline: false, tab: false }));
}

/** Ledger text that may span lines (a prompt, a Markdown body): newlines and tabs stay, CRLF becomes a newline, the rest is shown. */
export function visibleBlock(text: string | null | undefined): string {
  if (text === null || text === undefined) return '';
  return text.replace(/\r\n/g, '\n').replace(unsafe, (c) => picture(c, { newline: true, tab: true }));
}

/** Wraps text in SGR `on`…`off` as markers (see {@link toTerminal}). */
export function sgr(on: string, off: string, text: string): string {
  return `${MARK_OPEN}${on}${MARK_CLOSE}${text}${MARK_OPEN}${off}${MARK_CLOSE}`;
}

/** Width of text as a terminal shows it, without the styling markers. */
export function visibleWidth(text: string): number {
  return text.replace(markers, '').length;
}

/**
 * The last step before a stream: shows any control character still in the text (a field a
 * formatter forgot stays inert), then turns the styling markers into SGR sequences when
 * `color`, or removes them.
 */
export function toTerminal(text: string, color: boolean): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(markers)) {
    out += visibleBlock(text.slice(last, m.index));
    if (color) out += `\x1b[${m[1]}m`;
    last = m.index + m[0].length;
  }
  return out + visibleBlock(text.slice(last));
}
