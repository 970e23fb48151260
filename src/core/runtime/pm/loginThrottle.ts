import type { LedgerEngine } from '../../ports/store';
import { LedgerError } from '../../errors';
import type { LedgerLimits } from '../../limits/ledgerLimits';
import { addToCounter, readCounters, removeCounter, removeIdleCounters } from '../../limits/usageCounters';
import type { UsageCounter } from '../../limits/usageCounters';

export type LoginLimits = Pick<
  LedgerLimits,
  | 'loginSourceFreeFailures'
  | 'loginSourceMaxWaitMs'
  | 'loginAgentFreeFailures'
  | 'loginAgentDelayStepMs'
  | 'loginAgentMaxDelayMs'
  | 'loginWindowMs'
>;

/** The refusal of a connection that sent too many wrong passkeys. */
export const throttledMessage = 'Too many failed logins from this connection';

/**
 * How fast wrong passkeys are answered, counted in the ledger (usage_counters) so every server
 * process — one per client — and every machine sees the same counts:
 * - per source (the connection a login comes from): a few wrong passkeys are free, then the
 *   source must wait before its next try, 1 s doubling up to loginSourceMaxWaitMs; a try before
 *   that is refused at once (Throttled, `retry_after_ms`) without looking at the passkey. This
 *   is the limit that stops a guesser.
 * - per agent (wrong passkeys for it from anywhere): beyond a few, every login of that agent is
 *   answered later, by loginAgentDelayStepMs per wrong passkey up to loginAgentMaxDelayMs. Only a
 *   delay, never a refusal: a stranger guessing cannot lock the real agent out, only slow every
 *   guess of its own.
 * Unknown agents count like known ones (same rows, same work), so the answers stay alike; the
 * runner's single-use tickets never pass here.
 */
export class LoginThrottle {
  constructor(
    private readonly engine: LedgerEngine,
    private readonly clock: () => number,
    private readonly limits: LoginLimits,
    private readonly sleep: (ms: number) => Promise<void> = (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms).unref()),
  ) {}

  /**
   * Before a passkey is checked: refuses a source still waiting (Throttled), then waits the agent's
   * delay. Resolves with whether the source has wrong passkeys on record (a success clears them).
   */
  async admit(agentId: string, source: string): Promise<{ sourceFailures: number }> {
    const now = this.clock();
    const counters = await this.engine.read((db) => readCounters(db, [sourceScope(source), agentScope(agentId)]));
    const live = (scope: string): UsageCounter | undefined => {
      const c = counters.get(scope);
      return c && c.updatedAt >= now - this.limits.loginWindowMs ? c : undefined;
    };
    const source_ = live(sourceScope(source));
    const sourceFailures = source_?.amount ?? 0;
    if (source_ && sourceFailures >= this.limits.loginSourceFreeFailures) {
      const wait = Math.min(
        1000 * 2 ** (sourceFailures - this.limits.loginSourceFreeFailures),
        this.limits.loginSourceMaxWaitMs,
      );
      const retryAfter = source_.updatedAt + wait - now;
      if (retryAfter > 0)
        throw new LedgerError('Throttled', `${throttledMessage}: retry in ${Math.ceil(retryAfter / 1000)} s`, {
          error: throttledMessage,
          retry_after_ms: retryAfter,
        });
    }
    const agentFailures = live(agentScope(agentId))?.amount ?? 0;
    const excess = agentFailures - this.limits.loginAgentFreeFailures;
    if (excess > 0)
      await this.sleep(Math.min(excess * this.limits.loginAgentDelayStepMs, this.limits.loginAgentMaxDelayMs));
    return { sourceFailures };
  }

  /** A wrong passkey (or agent): counted for the source and the agent, in one write; stale counters go. */
  async failed(agentId: string, source: string): Promise<void> {
    const now = this.clock();
    const stale = { by: 'updated_at' as const, before: now - this.limits.loginWindowMs };
    await this.engine.write(async (tx) => {
      await addToCounter(tx, sourceScope(source), 1, now, stale);
      await addToCounter(tx, agentScope(agentId), 1, now, stale);
      await removeIdleCounters(tx, now - Math.max(this.limits.loginWindowMs, 24 * 3_600_000));
    });
  }

  /** A right passkey: the source starts afresh (the agent's count stays: those guesses were someone else's). */
  async succeeded(source: string): Promise<void> {
    await this.engine.write((tx) => removeCounter(tx, sourceScope(source)));
  }
}

const sourceScope = (source: string): string => `login:source:${source}`;
const agentScope = (agentId: string): string => `login:agent:${agentId}`;
