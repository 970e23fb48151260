/** One line read from the client: whole, or only its beginning when it passed the size limit. */
export type Frame = { kind: 'line'; text: string } | { kind: 'oversized'; prefix: string; bytes: number };

/**
 * Splits a byte stream into newline-delimited frames without ever holding more than
 * `maxBytes` of one line. A longer line is skipped up to its newline, keeping only its first
 * `prefixBytes` (enough to find the request id and answer it), so one huge frame costs a
 * refusal and nothing else — unlike the SDK's ReadBuffer, whose overflow closes the transport.
 */
export class LineFramer {
  private parts: Buffer[] = [];
  private size = 0;
  private prefix: Buffer | undefined;

  constructor(
    private readonly maxBytes: number,
    private readonly prefixBytes = 64 * 1024,
  ) {}

  /** The frames `chunk` completes, in order. */
  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      this.take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) break;
      frames.push(this.finish());
      start = newline + 1;
    }
    return frames;
  }

  /** Forgets a partial line (the stream was closed). */
  clear(): void {
    this.parts = [];
    this.size = 0;
    this.prefix = undefined;
  }

  private take(piece: Buffer): void {
    this.size += piece.length;
    if (this.prefix) return;
    if (this.size <= this.maxBytes) {
      if (piece.length) this.parts.push(piece);
      return;
    }
    // Past the limit: keep a copy of the beginning, drop the rest of the line as it arrives.
    this.prefix = Buffer.from(Buffer.concat([...this.parts, piece]).subarray(0, this.prefixBytes));
    this.parts = [];
  }

  private finish(): Frame {
    const frame: Frame = this.prefix
      ? { kind: 'oversized', prefix: this.prefix.toString('utf8'), bytes: this.size }
      : { kind: 'line', text: Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '') };
    this.clear();
    return frame;
  }
}
