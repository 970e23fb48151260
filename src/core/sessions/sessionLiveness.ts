import type { ProcessProbe } from '../ports/processes';
import type { Session } from './sessionRepo';

/**
 * Whether a running session's process still runs, as seen from this machine:
 * - `alive`: its pid runs and started when the session recorded (a pid alone proves nothing);
 * - `stale`: that process is gone (or its pid now names another process): nothing works on the
 *   session any more, and a person may end it;
 * - `elsewhere`: it runs on another machine, which this one cannot probe: never called stale;
 * - `unknown`: no process was recorded (a session from before v25, or a process with no owner).
 */
export type SessionLiveness = 'alive' | 'stale' | 'elsewhere' | 'unknown';

/** Reads a pid's start token now (null: no such process). */
export type ProcessProber = (pid: number) => Promise<ProcessProbe | null>;

/** The liveness of `session` seen from machine `here` (pure: the probe is given). */
export function livenessOf(
  session: Pick<Session, 'status' | 'process'>,
  here: string,
  probe: ProcessProbe | null | undefined,
): SessionLiveness | undefined {
  if (session.status !== 'running') return undefined;
  const p = session.process;
  if (p.machine !== null && p.machine !== here) return 'elsewhere';
  if (p.pid === null) return 'unknown';
  if (probe === undefined) return 'unknown';
  if (probe === null || probe.zombie) return 'stale';
  if (p.startToken === null || probe.startToken === '') return 'alive';
  return probe.startToken === p.startToken ? 'alive' : 'stale';
}

/** Probes each running session of this machine once per pid; the liveness by session id. */
export async function sessionLiveness(
  sessions: readonly Pick<Session, 'id' | 'status' | 'process'>[],
  here: string,
  prober: ProcessProber | undefined,
): Promise<Map<number, SessionLiveness>> {
  const probes = new Map<number, ProcessProbe | null>();
  const out = new Map<number, SessionLiveness>();
  for (const s of sessions) {
    if (s.status !== 'running') continue;
    const pid = s.process.pid;
    const local = s.process.machine === null || s.process.machine === here;
    if (prober && local && pid !== null && !probes.has(pid)) probes.set(pid, await prober(pid));
    const liveness = livenessOf(s, here, pid === null || !prober ? undefined : probes.get(pid));
    if (liveness) out.set(s.id, liveness);
  }
  return out;
}
