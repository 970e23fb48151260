import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * What tells a person's click in an MCP App from a model calling the same tool. The checkpoint's
 * view hands its page a single-use ticket in the result's `_meta` — hosts give a tool result's
 * `_meta` to the app's frame and show the model only `content`/`structuredContent` — and the
 * decision is taken only with it. The model never sees the ticket, so it cannot decide by calling
 * the decision tool itself. A ticket names one pipeline and one checkpoint and expires.
 */
export class DecisionTickets {
  private readonly tickets = new Map<string, { workspace: string; checkpoint: string; expires: number }>();

  constructor(private readonly ttlMs = 30 * 60_000) {}

  issue(workspace: string, checkpoint: string, now = Date.now()): string {
    for (const [t, v] of this.tickets) if (v.expires < now) this.tickets.delete(t);
    const ticket = randomBytes(24).toString('base64url');
    this.tickets.set(ticket, { workspace, checkpoint, expires: now + this.ttlMs });
    return ticket;
  }

  /** True once for a live ticket of this pipeline and checkpoint (then it is spent). */
  redeem(ticket: string, workspace: string, checkpoint: string, now = Date.now()): boolean {
    for (const [t, v] of this.tickets) {
      const a = Buffer.from(t);
      const b = Buffer.from(ticket);
      if (a.length !== b.length || !timingSafeEqual(a, b)) continue;
      this.tickets.delete(t);
      return v.expires >= now && v.workspace === workspace && v.checkpoint === checkpoint;
    }
    return false;
  }
}
