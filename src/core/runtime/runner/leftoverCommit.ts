/**
 * When a run ends, whatever its agent left uncommitted in the task's worktree is committed on the
 * task's branch, by the ledger, in the agent's name. The ledger knows these are exactly the task's
 * changes (the worktree is the task's alone, and its start snapshot is the branch's base), and an
 * agent whose permissions stop short of `commit` cannot commit at all: without this its work
 * would sit uncommitted, which blocks landing and keeps the worktree from ever being cleaned up.
 * Not when another agent's session still works in that worktree: its changes are its own.
 */
import type { LedgerEngine } from '../../ports/store';
import { parseId } from '../../ids';
import { appendEvent } from '../../events/eventLog';
import { worktreeFolder } from '../../workers/worktreeRepo';
import type { RunEnd } from './runnerPort';

/** Commits every change of a worktree (git layer): the commit and its files, or null when there was nothing. */
export type CommitWorktree = (
  dir: string,
  message: string,
  author: { name: string; email: string },
) => Promise<{ commit: string; files: string[] } | null>;

export async function commitRunLeftovers(
  engine: LedgerEngine,
  workspace: string,
  commit: CommitWorktree,
  run: RunEnd,
  now: Date,
): Promise<{ commit: string; files: string[] } | null> {
  if (run.taskId === null) return null;
  const taskId = parseId('task', run.taskId);
  const place = await engine.read(async (db) => {
    const worktree = await db.get<{ path: string; removed_at: string | null }>(
      'SELECT path, removed_at FROM worktrees WHERE task_id = ?',
      [taskId],
    );
    if (!worktree || worktree.removed_at !== null) return null;
    const others = await db.all<{ id: number }>(
      "SELECT id FROM sessions WHERE task_id = ? AND worktree = ? AND status = 'running' AND (session_group_id IS NULL OR session_group_id <> ?)",
      [taskId, worktree.path, run.executionId],
    );
    return others.length > 0 ? null : worktree.path;
  });
  if (place === null) return null;
  const made = await commit(
    worktreeFolder(workspace, place),
    `${run.taskId}: changes ${run.agentId} left uncommitted (run ${run.executionId})\n\nCommitted by Agent Ledger when the run ended, so that the task's branch holds all of its work.`,
    { name: run.agentId, email: `${run.agentId.replace(/[^A-Za-z0-9._-]+/g, '-') || 'agent'}@agents.agent-ledger` },
  );
  if (!made) return null;
  await engine.write((tx) =>
    appendEvent(tx, {
      ts: now.toISOString(),
      kind: 'worktree.committed',
      taskId,
      entity: 'worktree',
      entityId: place,
      payload: { executionId: run.executionId, agent: run.agentId, commit: made.commit, files: made.files },
    }),
  );
  return made;
}
