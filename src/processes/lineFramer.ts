/**
 * Turns one output stream (stdout or stderr) into redacted lines. Pure: bytes in, lines out.
 *
 * A secret can arrive split across two reads, or be a prefix of what is buffered when a partial
 * line must be flushed (a prompt without newline, a long line). The framer redacts the whole
 * buffered text first, then holds back any tail that could still become a secret, so a secret
 * never reaches the log in pieces.
 */
import { StringDecoder } from 'node:string_decoder';

/** What replaces a secret in logs and summaries. */
export const redactionMark = '[REDACTED]';

/** Secrets at least this long (tokens, tickets, generated passkeys) are also redacted in pieces. */
const piecedFrom = 32;

/**
 * The forms a secret takes when a program prints it encoded: as it is, URL-encoded (a query
 * string), JSON-escaped (a logged request body), base64 and base64url with and without padding
 * (an Authorization header, a token dumped as bytes), hex in either case, reversed. A long
 * secret printed in pieces (`echo ${T:0:20}; echo ${T:20}`) is caught too: every run of half of
 * it (16 characters, 32 hex digits), as it is and reversed — random text that ordinary output
 * never holds. Forms shorter than 8 characters are left out, where they would be common text.
 */
export function secretForms(secret: string): string[] {
  if (!secret) return [];
  const bytes = Buffer.from(secret, 'utf8');
  const base64 = bytes.toString('base64');
  const hex = bytes.toString('hex');
  const reversed = [...secret].reverse().join('');
  const forms = [
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    base64,
    base64.replace(/=+$/, ''),
    bytes.toString('base64url'),
    hex,
    hex.toUpperCase(),
    reversed,
  ];
  if (secret.length >= piecedFrom)
    forms.push(
      ...runsOf(secret, piecedFrom / 2),
      ...runsOf(reversed, piecedFrom / 2),
      ...runsOf(hex, piecedFrom),
      ...runsOf(hex.toUpperCase(), piecedFrom),
    );
  return [...new Set(forms.filter((form, i) => i === 0 || form.length >= 8))];
}

/** Every run of `length` characters of `text`. */
function runsOf(text: string, length: number): string[] {
  const runs: string[] = [];
  for (let i = 0; i + length <= text.length; i++) runs.push(text.slice(i, i + length));
  return runs;
}

/** Replaces secrets, and their encoded forms; knows which buffered tail could still turn into one. */
export class Redactor {
  private readonly secrets: string[];

  constructor(secrets: Iterable<string>) {
    // Longest first, so a secret containing another (or its padded base64 the unpadded one) is replaced whole.
    this.secrets = [...new Set([...secrets].flatMap(secretForms))].sort((a, b) => b.length - a.length);
  }

  get empty(): boolean {
    return this.secrets.length === 0;
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) {
      if (out.includes(secret)) out = out.split(secret).join(redactionMark);
    }
    return out;
  }

  /** Length of the longest end of `text` that is the start (but not the whole) of a secret. */
  heldBack(text: string): number {
    let best = 0;
    for (const secret of this.secrets) {
      for (let k = Math.min(secret.length - 1, text.length); k > best; k--) {
        if (text.endsWith(secret.slice(0, k))) {
          best = k;
          break;
        }
      }
    }
    return best;
  }
}

/** One line of output. `eol` is false when it was flushed before its newline. */
export interface FramedLine {
  text: string;
  eol: boolean;
}

/** Lines of one stream. */
export class LineFramer {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';

  constructor(
    private readonly redactor: Redactor,
    /** Longer lines are cut into pieces of this many characters (a reader never meets a huge entry). */
    private readonly maxLine = 16_384,
  ) {}

  /** True when text is waiting for its newline. */
  get hasPartial(): boolean {
    return this.pending.length > 0;
  }

  /** Complete lines the chunk finished. */
  push(chunk: Buffer): FramedLine[] {
    this.pending = this.redactor.redact(this.pending + this.decoder.write(chunk));
    const safeEnd = this.pending.length - this.redactor.heldBack(this.pending);
    const lines: FramedLine[] = [];
    const lastNewline = safeEnd > 0 ? this.pending.lastIndexOf('\n', safeEnd - 1) : -1;
    if (lastNewline >= 0) {
      for (const text of this.pending.slice(0, lastNewline).split('\n')) lines.push({ text: stripCr(text), eol: true });
      this.pending = this.pending.slice(lastNewline + 1);
    }
    while (this.pending.length - this.redactor.heldBack(this.pending) > this.maxLine) {
      lines.push({ text: this.pending.slice(0, this.maxLine), eol: false });
      this.pending = this.pending.slice(this.maxLine);
    }
    return lines;
  }

  /** The partial line so far (minus a tail that could still become a secret). */
  flushPartial(): FramedLine[] {
    const safeEnd = this.pending.length - this.redactor.heldBack(this.pending);
    if (safeEnd <= 0) return [];
    const text = this.pending.slice(0, safeEnd);
    this.pending = this.pending.slice(safeEnd);
    return [{ text, eol: false }];
  }

  /** Everything left, at end of stream. */
  end(): FramedLine[] {
    const rest = this.redactor.redact(this.pending + this.decoder.end());
    this.pending = '';
    if (!rest) return [];
    const parts = rest.split('\n');
    const last = parts.pop() as string;
    const lines: FramedLine[] = parts.map((text) => ({ text: stripCr(text), eol: true }));
    if (last) lines.push({ text: last, eol: false });
    return lines;
  }
}

function stripCr(text: string): string {
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}
