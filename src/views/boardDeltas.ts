import type { BoardHostMessage, BoardModel } from '../shared/protocol';

/**
 * What one page of the Board is sent: the whole model once (after each `ready`), then only what
 * changed — cards new or different, ids gone, the agents when they changed. At 2,000 tasks a
 * whole board is ~600 KB; a change of a few tasks posts only those.
 */
export class BoardDeltas {
  /** The cards the page holds (id → JSON as posted), undefined until it got a whole model since its last `ready`. */
  private posted: Map<string, string> | undefined;
  private postedAgents = '';
  private postedPlans = '';

  /** The page reloaded: its next message is the whole board. */
  reset(): void {
    this.posted = undefined;
  }

  /** The message that brings the page to `model`, or null when it already shows it. */
  next(model: BoardModel): BoardHostMessage | null {
    const cards = new Map(model.cards.map((c) => [c.id, JSON.stringify(c)]));
    const agents = JSON.stringify(model.agents);
    const plans = JSON.stringify(model.plans ?? []);
    const before = this.posted;
    this.posted = cards;
    if (!before) {
      this.postedAgents = agents;
      this.postedPlans = plans;
      return { type: 'board', model };
    }
    const upserts = model.cards.filter((c) => before.get(c.id) !== cards.get(c.id));
    const removed = [...before.keys()].filter((id) => !cards.has(id));
    const agentsChanged = agents !== this.postedAgents;
    const plansChanged = plans !== this.postedPlans;
    this.postedAgents = agents;
    this.postedPlans = plans;
    if (!upserts.length && !removed.length && !agentsChanged && !plansChanged) return null;
    return {
      type: 'boardDelta',
      upserts,
      removed,
      ...(agentsChanged ? { agents: model.agents } : {}),
      ...(plansChanged ? { plans: model.plans ?? [] } : {}),
    };
  }
}
