import type { AgentActivity } from '../core/sessions/agentSessions';

/**
 * An agent row's words, the same in the editor's tree and the web board (no `vscode`, so unit
 * tests read them with literal inputs).
 */

/**
 * How soon a view looks again at sessions whose process ran at its last look: a process that dies
 * writes nothing to the ledger, so no change wakes the view (a read of /proc per session).
 */
export const livenessRecheckMs = 5_000;

/** `2 running`, `1 running, 1 stale`, `1 stale`; null when none runs: a stale session is not counted running. */
export function sessionCountText(activity: Pick<AgentActivity, 'running' | 'stale'> | undefined): string | null {
  if (!activity) return null;
  const parts = [
    ...(activity.running ? [`${activity.running} running`] : []),
    ...(activity.stale ? [`${activity.stale} stale`] : []),
  ];
  return parts.length ? parts.join(', ') : null;
}
