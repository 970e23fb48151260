/**
 * The one read of handoffs nobody accepted yet, oldest first, with their task's title. The agent
 * API (`get_pending_handoffs`), the Agents & Sessions view and the Board each shape it their own
 * way, from the same rows.
 */
import type { AsyncSqlReader } from '../../ports/store';

/** A pending handoff as stored, with the title of its task. */
export interface PendingHandoffRow {
  id: number;
  task_id: number;
  task_title: string | null;
  from_agent: string;
  to_agent: string | null;
  summary: string;
  context: string | null;
  recommendations: string | null;
  status: 'pending';
  created_at: string;
  accepted_at: null;
  accepted_by: null;
}

/** Pending handoffs, oldest first; for `agent`, those addressed to it or to nobody. */
export async function pendingHandoffRows(db: AsyncSqlReader, agent?: string): Promise<PendingHandoffRow[]> {
  const rows = await db.all<PendingHandoffRow>(
    `SELECT h.id, h.task_id, t.title AS task_title, h.from_agent, h.to_agent, h.summary, h.context, h.recommendations, h.status, h.created_at, h.accepted_at, h.accepted_by
       FROM handoffs h LEFT JOIN tasks t ON t.id = h.task_id
      WHERE h.status = 'pending'${agent === undefined ? '' : ' AND (h.to_agent = ? OR h.to_agent IS NULL)'}
      ORDER BY h.id`,
    agent === undefined ? [] : [agent],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), task_id: Number(r.task_id) }));
}
