// The durability trials of the peer benchmark: several server processes writing to one project
// at once, and a server killed with SIGKILL in the middle of a stream of writes. Both count what
// a client was told had been written against what a fresh server finds afterwards.
import type { ServerAdapter } from './adapter';
import { openSession } from './session';
import type { Session } from './session';

/** What a trial wrote and what survived. */
export interface WriteCount {
  /** Creates the server acknowledged. */
  acked: number;
  /** Acknowledged creates missing at the end. */
  lost: number;
  /** Extra copies of acknowledged creates (a title present n times counts n − 1). */
  doubled: number;
  /** Creates that failed (errors, timeouts: not acknowledged, so not counted as lost). */
  failed: number;
  /** Why the count could not be taken (the store could not be read back), if so. */
  unreadable?: string;
  /** The first failed create's error, if any. */
  firstError?: string;
}

/** Counts `acked` titles in what a fresh server lists. */
async function countSurvivors(
  adapter: ServerAdapter,
  project: string,
  acked: string[],
  failed: number,
  firstError?: string,
): Promise<WriteCount> {
  let s: Session | undefined;
  try {
    s = await openSession(adapter.launch(project));
    const seen = new Map<string, number>();
    for (const title of await adapter.titles(s, project)) seen.set(title, (seen.get(title) ?? 0) + 1);
    let lost = 0;
    let doubled = 0;
    for (const title of acked) {
      const n = seen.get(title) ?? 0;
      if (n === 0) lost++;
      else doubled += n - 1;
    }
    return { acked: acked.length, lost, doubled, failed, firstError };
  } catch (e) {
    return {
      acked: acked.length,
      lost: acked.length,
      doubled: 0,
      failed,
      firstError,
      unreadable: (e as Error).message.slice(0, 160),
    };
  } finally {
    await s?.close();
  }
}

/**
 * `writers` server processes on one project (like as many MCP clients), each creating
 * `perWriter` tasks one after another, all writers at once.
 */
export async function concurrentWriters(
  adapter: ServerAdapter,
  project: string,
  writers: number,
  perWriter: number,
  tag: string,
): Promise<WriteCount> {
  const sessions = await Promise.all(Array.from({ length: writers }, () => openSession(adapter.launch(project))));
  const acked: string[] = [];
  let failed = 0;
  let firstError: string | undefined;
  try {
    await Promise.all(
      sessions.map(async (s, w) => {
        for (let i = 0; i < perWriter; i++) {
          const title = `${tag}-w${w}-${i}`;
          try {
            await adapter.create(s, project, title);
            acked.push(title);
          } catch (e) {
            failed++;
            firstError ??= (e as Error).message.slice(0, 160);
          }
        }
      }),
    );
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
  }
  return countSurvivors(adapter, project, acked, failed, firstError);
}

/** One kill trial's count, with how long the restarted server took to acknowledge a write. */
export interface KillCount extends WriteCount {
  /** Spawn of the restarted server → its first acknowledged create, in ms (NaN if none). */
  restartToWriteMs: number;
  /** Why the restarted server did not acknowledge that create, if it did not. */
  restartError?: string;
}

/**
 * Streams creates into one server and kills its process group with SIGKILL after `killAfterMs`
 * (a create is almost always in flight then), restarts it, times the first acknowledged write,
 * and counts which acknowledged creates survived.
 */
export async function killTrial(
  adapter: ServerAdapter,
  project: string,
  killAfterMs: number,
  tag: string,
): Promise<KillCount> {
  const s = await openSession(adapter.launch(project));
  const acked: string[] = [];
  let failed = 0;
  let stop = false;
  let firstError: string | undefined;
  const stream = (async () => {
    for (let i = 0; !stop; i++) {
      const title = `${tag}-${i}`;
      try {
        await adapter.create(s, project, title);
        if (!stop) acked.push(title);
      } catch (e) {
        if (stop) return;
        failed++;
        firstError ??= (e as Error).message.slice(0, 160);
      }
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, killAfterMs));
  // An answer arriving after the kill was sent is not counted: the client may never see it.
  stop = true;
  s.kill();
  await stream;
  await s.close();
  let restartToWriteMs = NaN;
  let restartError: string | undefined;
  const started = performance.now();
  try {
    const again = await openSession(adapter.launch(project));
    try {
      await adapter.create(again, project, `${tag}-after-restart`);
      restartToWriteMs = performance.now() - started;
    } finally {
      await again.close();
    }
  } catch (e) {
    // The store is still read back below, by yet another fresh server.
    restartError = (e as Error).message.slice(0, 300);
  }
  return { ...(await countSurvivors(adapter, project, acked, failed, firstError)), restartToWriteMs, restartError };
}
