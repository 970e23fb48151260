/**
 * One `git cat-file --batch` kept running per repository, so a snapshot reads HEAD's folders
 * (changedTree.ts) without starting a process. Starting one from Node forks the whole Node
 * process, and `spawn()` blocks the event loop meanwhile in proportion to its memory.
 *
 * Objects never change once written, so a reader that has run for a while cannot answer with
 * stale content: it finds loose objects written after it started by their path, and packs made
 * since (`git gc`) by scanning again on a miss. A reader stops after `idleMs` without requests,
 * holds the event loop only while a request is pending, and is replaced after any failure (the
 * request fails; the caller falls back to git's own commands).
 */
import type { Socket } from 'node:net';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { startGit } from '../gitRepo';
import type { GitRepo } from '../gitRepo';
import { parseCatFileBatch } from '../parsers';
import type { BatchObject } from '../parsers';

const idleMs = 30_000;
/** A request that gets no whole answer within this is failed and its reader stopped. */
const requestTimeoutMs = 10_000;

/** By repository (work tree and object store): every GitRepo opened on it shares one reader. */
const readers = new Map<string, BatchReader>();

let requests = 0;

/** How many requests readers of this process answered or failed (tests check what a cache spared). */
export function batchRequests(): number {
  return requests;
}

/** The objects named by `lines` (one object name per line, each ending in `\n`), in order. */
export function readObjects(repo: GitRepo, lines: Buffer, count: number): Promise<BatchObject[]> {
  requests++;
  const key = `${repo.commonDir}\0${repo.root}`;
  let reader = readers.get(key);
  if (!reader) readers.set(key, (reader = new BatchReader(repo.root)));
  return reader.read(lines, count);
}

class BatchReader {
  private child: ChildProcessWithoutNullStreams | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly cwd: string) {}

  read(lines: Buffer, count: number): Promise<BatchObject[]> {
    const request = this.queue.then(() => this.request(lines, count));
    this.queue = request.catch(() => undefined);
    return request;
  }

  private request(lines: Buffer, count: number): Promise<BatchObject[]> {
    clearTimeout(this.idle);
    const child = this.child ?? this.start();
    return new Promise((resolve, reject) => {
      let received: Buffer = Buffer.alloc(0);
      const finish = (error: Error | null, objects?: BatchObject[]) => {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.off('close', onClose);
        this.hold(child, false);
        if (error || !objects) {
          this.stop(child);
          reject(error ?? new Error('git cat-file --batch: no answer'));
          return;
        }
        this.idle = setTimeout(() => this.stop(child), idleMs);
        this.idle.unref();
        resolve(objects);
      };
      const onData = (chunk: Buffer) => {
        received = received.length ? Buffer.concat([received, chunk]) : chunk;
        const state = answered(received, count);
        if (state === 'whole') finish(null, parseCatFileBatch(received));
        else if (state === 'garbled') finish(new Error('git cat-file --batch: unexpected output'));
      };
      const onClose = () => finish(new Error('git cat-file --batch ended'));
      const timer = setTimeout(() => finish(new Error('git cat-file --batch: no answer in time')), requestTimeoutMs);
      child.stdout.on('data', onData);
      child.once('close', onClose);
      this.hold(child, true);
      child.stdin.write(lines);
    });
  }

  private start(): ChildProcessWithoutNullStreams {
    const child = startGit(this.cwd, ['cat-file', '--batch'], { GIT_NO_REPLACE_OBJECTS: '1' });
    this.child = child;
    // A reader that ended while idle (killed, out of memory) is never written to again.
    child.once('close', () => {
      if (this.child === child) this.child = null;
    });
    child.on('error', () => this.stop(child));
    child.stdin.on('error', () => this.stop(child));
    child.stderr.resume();
    this.hold(child, false);
    return child;
  }

  /** Ends the reader (stdin closed: git exits); a later request starts a new one. */
  private stop(child: ChildProcessWithoutNullStreams): void {
    if (this.child === child) this.child = null;
    child.stdin.end();
    if (child.exitCode === null && child.signalCode === null) child.kill();
  }

  /** Keeps the process alive for a pending request only (pipes and the child handle). */
  private hold(child: ChildProcessWithoutNullStreams, pending: boolean): void {
    for (const handle of [
      child,
      child.stdin as unknown as Socket,
      child.stdout as unknown as Socket,
      child.stderr as unknown as Socket,
    ]) {
      if (pending) handle.ref?.();
      else handle.unref?.();
    }
  }
}

/** Whether `output` holds exactly `count` whole answers of `cat-file --batch` (headers give each content's size). */
function answered(output: Buffer, count: number): 'whole' | 'partial' | 'garbled' {
  let at = 0;
  for (let n = 0; n < count; n++) {
    const eol = output.indexOf(0x0a, at);
    if (eol < 0) return 'partial';
    const header = output.toString('latin1', at, eol);
    at = eol + 1;
    if (/ (missing|ambiguous)$/.test(header)) continue;
    const size = Number(header.split(' ')[2]);
    if (!Number.isSafeInteger(size)) return 'garbled';
    at += size + 1;
    if (at > output.length) return 'partial';
  }
  return at === output.length ? 'whole' : 'garbled';
}
