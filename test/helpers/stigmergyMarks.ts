import { connect } from './mcpClient';
import type { LedgerClient } from './mcpClient';

/** A stigmergy mark as stig_snapshot lists it (the fields the tests read). */
export interface MarkPoint {
  node_id: string;
  type: string;
  intensity: number;
  updated_at: number;
}

/** The marks of one type, sorted by node. */
export async function marksOf(c: LedgerClient, type: string): Promise<MarkPoint[]> {
  const snap = await c.call<{ points: MarkPoint[] }>('stig_snapshot', { limit: 500 });
  return snap.points.filter((p) => p.type === type).sort((a, b) => (a.node_id < b.node_id ? -1 : 1));
}

/** A server that looks at its running tasks' worktrees every `lookMs` (AGENT_LEDGER_CHANGED_MARKS_MS while it starts). */
export async function connectLooking(repo: string, lookMs: number, flags: string[]): Promise<LedgerClient> {
  const saved = process.env.AGENT_LEDGER_CHANGED_MARKS_MS;
  process.env.AGENT_LEDGER_CHANGED_MARKS_MS = String(lookMs);
  try {
    return await connect(repo, flags);
  } finally {
    if (saved === undefined) delete process.env.AGENT_LEDGER_CHANGED_MARKS_MS;
    else process.env.AGENT_LEDGER_CHANGED_MARKS_MS = saved;
  }
}
