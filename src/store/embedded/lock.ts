import * as fs from 'node:fs';
import * as os from 'node:os';
import { randomBytes } from 'node:crypto';
import { StoreError } from '../errors';

/**
 * A cross-process lock on one file, for the few milliseconds of a write.
 *
 * The lock file is created atomically with its content (written to a temp file, then
 * hard-linked into place: `link` fails if the name exists), so a holder killed at any
 * instant leaves either no lock or a complete one naming its pid. A lock whose holder is
 * dead (same host, pid gone) or that is older than `staleMs` is broken — under a short-
 * lived guard directory, re-checking the owner first, so two waiters never both break it
 * and a live holder's lock is never removed.
 */
export interface LockOptions {
  /** Give up after this long with a `busy` StoreError. */
  timeoutMs?: number;
  /** A lock held longer than this is considered abandoned whatever its pid says. */
  staleMs?: number;
}

interface Owner {
  pid: number;
  host: string;
  nonce: string;
  at: number;
}

const host = os.hostname();

export class FileLock {
  private held: string | undefined;

  constructor(
    readonly path: string,
    private readonly options: LockOptions = {},
  ) {}

  get isHeld(): boolean {
    return this.held !== undefined;
  }

  /** Tries once; true when the lock is now ours. */
  tryAcquire(): boolean {
    if (this.held) throw new StoreError('lockMisuse', `lock ${this.path} is already held by this process`);
    const owner: Owner = { pid: process.pid, host, nonce: randomBytes(8).toString('hex'), at: Date.now() };
    const text = JSON.stringify(owner);
    const tmp = `${this.path}.${owner.nonce}.tmp`;
    try {
      // On a full disk the file is created and its write fails: it goes with the finally below.
      fs.writeFileSync(tmp, text);
      fs.linkSync(tmp, this.path);
      this.held = text;
      return true;
    } catch (err) {
      if (code(err) !== 'EEXIST') throw err;
      this.breakIfAbandoned();
      return false;
    } finally {
      rmQuiet(tmp);
    }
  }

  async acquire(): Promise<void> {
    const timeoutMs = this.options.timeoutMs ?? 15_000;
    const deadline = Date.now() + timeoutMs;
    let wait = 1;
    for (;;) {
      if (this.tryAcquire()) return;
      if (Date.now() > deadline) {
        throw new StoreError(
          'busy',
          `the ledger store is locked by another process (${this.path}) for more than ${timeoutMs} ms`,
        );
      }
      // Writes hold the lock for a few milliseconds: poll fast, back off a little, add jitter
      // so waiters do not move in lockstep.
      await sleep(wait + Math.random() * wait);
      wait = Math.min(wait * 2, 20);
    }
  }

  release(): void {
    if (!this.held) return;
    const mine = this.held;
    this.held = undefined;
    // Only remove the file if it is still ours (it can only have been broken if we stalled
    // past staleMs; removing someone else's lock would let a third process in).
    if (readQuiet(this.path) === mine) rmQuiet(this.path);
  }

  private breakIfAbandoned(): void {
    const text = readQuiet(this.path);
    if (text === undefined) return; // released meanwhile: retry at once
    if (!this.isAbandoned(text)) return;
    const guard = `${this.path}.guard`;
    try {
      fs.mkdirSync(guard);
    } catch (err) {
      if (code(err) !== 'EEXIST') throw err;
      // Someone else is breaking it. A guard is held for microseconds; one older than a
      // few seconds belongs to a breaker that died mid-way.
      const age = ageMs(guard);
      if (age !== undefined && age > 5_000) rmdirQuiet(guard);
      return;
    }
    try {
      // Re-read under the guard: only a dead owner's exact lock is removed.
      if (readQuiet(this.path) === text) rmQuiet(this.path);
    } finally {
      rmdirQuiet(guard);
    }
  }

  private isAbandoned(text: string): boolean {
    let owner: Owner;
    try {
      owner = JSON.parse(text) as Owner;
    } catch {
      // link() makes the content atomic, so this is not ours to judge: use age only.
      return (ageMs(this.path) ?? 0) > (this.options.staleMs ?? 30_000);
    }
    if (Date.now() - owner.at > (this.options.staleMs ?? 30_000)) return true;
    if (owner.host !== host) return false;
    if (owner.pid === process.pid) return false;
    return !processAlive(owner.pid);
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return code(err) === 'EPERM';
  }
}

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

function readQuiet(path: string): string | undefined {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function rmQuiet(path: string): void {
  try {
    fs.unlinkSync(path);
  } catch {
    /* already gone */
  }
}

function rmdirQuiet(path: string): void {
  try {
    fs.rmdirSync(path);
  } catch {
    /* already gone */
  }
}

function ageMs(path: string): number | undefined {
  try {
    return Date.now() - fs.statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
