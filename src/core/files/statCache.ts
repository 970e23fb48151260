import * as fs from 'node:fs';

/**
 * Parsed files keyed by path, reparsed only when the file changed on disk (inode, size,
 * nanosecond mtime and ctime), so listings re-read what a person edited by hand and nothing else.
 */
export class StatCache<T> {
  private readonly entries = new Map<string, { key: string; value: T }>();

  constructor(private readonly parse: (text: string, file: string) => T) {}

  /** The parsed file, or undefined when it no longer exists. Parse errors propagate. */
  get(file: string): T | undefined {
    let stat: fs.BigIntStats;
    try {
      stat = fs.statSync(file, { bigint: true });
    } catch {
      this.entries.delete(file);
      return undefined;
    }
    const key = `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
    const hit = this.entries.get(file);
    if (hit && hit.key === key) return hit.value;
    const value = this.parse(fs.readFileSync(file, 'utf8'), file);
    this.entries.set(file, { key, value });
    return value;
  }
}
