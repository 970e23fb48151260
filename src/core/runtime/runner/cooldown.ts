/**
 * When a failing (agent, project) may be launched again. A run that ends badly (non-zero exit, a
 * signal, a limit, a launch that could not start) doubles the wait before the next launch, from
 * `baseMs` up to `maxMs`; a clean exit clears it. Every run also leaves `minGapMs` before the
 * next launch of the same pair, so an agent that exits at once without finishing cannot make the
 * runner spin (the public runner of this design relaunched a failing manager every 7–11 s). Pure:
 * the runner passes the clock.
 */

export interface CooldownPolicy {
  baseMs: number;
  maxMs: number;
  minGapMs: number;
}

export const defaultCooldown: CooldownPolicy = { baseMs: 30_000, maxMs: 15 * 60_000, minGapMs: 5_000 };

export interface CooldownState {
  /** Bad runs in a row. */
  failures: number;
  /** No launch before this time (ms since the epoch). */
  until: number;
  /** Why, for status output. */
  reason: string | null;
}

export class Cooldowns {
  private readonly states = new Map<string, CooldownState>();

  constructor(private readonly policy: CooldownPolicy = defaultCooldown) {}

  /** Whether `key` may be launched at `now`. */
  ready(key: string, now: number): boolean {
    const state = this.states.get(key);
    return !state || now >= state.until;
  }

  /** Records the end of a run. */
  ended(key: string, now: number, outcome: { ok: boolean; reason?: string }): CooldownState {
    const previous = this.states.get(key);
    const failures = outcome.ok ? 0 : (previous?.failures ?? 0) + 1;
    const wait =
      failures === 0 ? this.policy.minGapMs : Math.min(this.policy.maxMs, this.policy.baseMs * 2 ** (failures - 1));
    const state: CooldownState = {
      failures,
      until: now + Math.max(wait, this.policy.minGapMs),
      reason: outcome.ok ? null : (outcome.reason ?? 'failed'),
    };
    this.states.set(key, state);
    return state;
  }

  get(key: string): CooldownState | undefined {
    return this.states.get(key);
  }

  /** Pairs waiting at `now`, for status output. */
  waiting(now: number): Array<{ key: string } & CooldownState> {
    return [...this.states.entries()].filter(([, s]) => s.until > now).map(([key, s]) => ({ key, ...s }));
  }
}
