// The timed phases of the peer benchmark at one store size. Every phase is interleaved: each
// round runs one step on every server in turn (the first server rotating), so the machine's load
// falls on all of them alike.
import { percentile } from '../lib/report';
import type { Operation, ServerAdapter } from './adapter';
import { operations } from './adapter';
import { openSession, withTimeout } from './session';
import type { Session } from './session';

/** A server taking part in the run: its adapter, its project, how many tasks it holds. */
export interface Contender {
  adapter: ServerAdapter;
  project: string;
  tasks: number;
  /** Set when the server could not be installed or started: its cells then say so. */
  failure?: string;
  /** Tasks handed out for status changes so far (each status change takes a fresh one). */
  statusUsed: number;
}

/** Medians and memory of one server at one size (NaN/undefined where not measured). */
export interface SizeFigures {
  seedMs?: number;
  seeded?: number;
  spawnMs: number[];
  firstWriteMs: number[];
  opMs: Partial<Record<Operation, number[]>>;
  opErrors: Partial<Record<Operation, string>>;
  rssIdle?: number;
  rssAfter?: number;
  error?: string;
  /** Text the server wrote on stdout that is not the protocol (the client reports it as an error). */
  stray?: string;
}

/** Runs `step` for every contender still alive, first one rotating with `round`. */
async function roundRobin(
  contenders: Contender[],
  round: number,
  step: (c: Contender) => Promise<void>,
): Promise<void> {
  const alive = contenders.filter((c) => !c.failure);
  for (let i = 0; i < alive.length; i++) await step(alive[(i + round) % alive.length]);
}

/** Grows each store to `size` tasks through its own tools, timing it. */
export async function seedTo(
  contenders: Contender[],
  size: number,
  figures: Map<Contender, SizeFigures>,
  log: (l: string) => void,
): Promise<void> {
  await roundRobin(contenders, 0, async (c) => {
    const count = size - c.tasks;
    if (count <= 0) return;
    let s: Session | undefined;
    const started = performance.now();
    try {
      s = await openSession(c.adapter.launch(c.project));
      await c.adapter.seed(s, c.project, c.tasks, count);
      const f = figures.get(c)!;
      f.seedMs = performance.now() - started;
      f.seeded = count;
      c.tasks = size;
      log(`  ${c.adapter.name}: seeded ${count} tasks in ${(f.seedMs / 1000).toFixed(1)} s`);
    } catch (e) {
      c.failure = `seeding failed: ${(e as Error).message.slice(0, 200)}`;
      log(`  ${c.adapter.name}: ${c.failure}`);
    } finally {
      await s?.close();
    }
  });
}

/** Spawn → tools listed, then → first acknowledged create, `trials` times per server. */
export async function spawnTrials(
  contenders: Contender[],
  trials: number,
  figures: Map<Contender, SizeFigures>,
): Promise<void> {
  for (let t = 0; t < trials; t++) {
    await roundRobin(contenders, t, async (c) => {
      const f = figures.get(c)!;
      let s: Session | undefined;
      try {
        const started = performance.now();
        s = await openSession(c.adapter.launch(c.project));
        await withTimeout(s.listTools(), 60_000, 'tools/list');
        f.spawnMs.push(performance.now() - started);
        f.stray ??= s.strayOutput()[0];
        await c.adapter.create(s, c.project, `spawn-trial-${c.tasks}-${t}`);
        f.firstWriteMs.push(performance.now() - started);
        c.tasks++;
      } catch (e) {
        f.error ??= `spawn: ${(e as Error).message.slice(0, 200)}`;
      } finally {
        await s?.close();
      }
    });
  }
}

/**
 * get / list / status change / create, `runs` timed rounds (after 2 untimed), one session per
 * server, with its RSS read after 1 s idle and again after the calls.
 */
export async function operationRounds(
  contenders: Contender[],
  runs: number,
  figures: Map<Contender, SizeFigures>,
): Promise<void> {
  const sessions = new Map<Contender, Session>();
  const ids = new Map<Contender, string[]>();
  try {
    await roundRobin(contenders, 0, async (c) => {
      try {
        const s = await openSession(c.adapter.launch(c.project));
        sessions.set(c, s);
        await s.listTools();
        ids.set(c, await c.adapter.ids(s, c.project));
      } catch (e) {
        figures.get(c)!.error ??= `start: ${(e as Error).message.slice(0, 200)}`;
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const [c, s] of sessions) figures.get(c)!.rssIdle = s.rss();
    for (let round = -2; round < runs; round++) {
      for (const op of operations) {
        await roundRobin(contenders, round + 2, async (c) => {
          const s = sessions.get(c);
          const f = figures.get(c)!;
          const run = op === 'create' ? undefined : c.adapter.run[op];
          if (!s || f.opErrors[op] || (op !== 'create' && !run)) return;
          const list = ids.get(c) ?? [];
          const id =
            op === 'status'
              ? list[list.length - 1 - c.statusUsed++]
              : list[(Math.abs(round) * 7919) % Math.max(1, list.length)];
          const started = performance.now();
          try {
            if (op === 'create') {
              await c.adapter.create(s, c.project, `op-create-${c.tasks}-${round}`);
              c.tasks++;
            } else {
              if (id === undefined) throw new Error('no task to act on');
              await run!(s, c.project, id);
            }
            if (round >= 0) (f.opMs[op] ??= []).push(performance.now() - started);
          } catch (e) {
            f.opErrors[op] = (e as Error).message.slice(0, 160);
          }
        });
      }
    }
    for (const [c, s] of sessions) figures.get(c)!.rssAfter = s.rss();
  } finally {
    await Promise.all([...sessions.values()].map((s) => s.close()));
  }
}

/** Median of samples, NaN when there are none. */
export function median(samples: number[] | undefined): number {
  return samples && samples.length ? percentile(samples, 50) : NaN;
}
