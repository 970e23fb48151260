import type { ExplorerPressure, PressureTask } from '../core/board/boardQueries';
import { truncate } from '../core/format';

/**
 * What the Explorer shows on a file or folder running tasks work on, as ledger state rather than
 * a count: Git owns M/A/D/R/C/U/I/T beside it, and a bare number there reads as a problem count
 * ("M, 1"). Plain data (no `vscode`) so unit tests read it; the provider turns it into a
 * FileDecoration.
 */
export interface ExplorerBadge {
  /** `W`: a running task wrote here; `S`: only in a running task's declared scope; `•`: an agent's own marks. */
  badge: 'W' | 'S' | '•';
  /** One line per task: "changed by task-7 (coder, running): Fix login". */
  tooltip: string;
  /** The theme colour the label takes (contributed in package.json), or none. */
  color: ExplorerBadgeColor | undefined;
}

/** The colours package.json contributes for the badges (neither the error nor the warning colour). */
export const ExplorerBadgeColors = {
  changed: 'agentLedger.explorer.changedByTaskForeground',
  shared: 'agentLedger.explorer.changedByTasksForeground',
} as const;
export type ExplorerBadgeColor = (typeof ExplorerBadgeColors)[keyof typeof ExplorerBadgeColors];

/** A task's status as people read it on a badge (`in_progress` is what the agent is doing: running). */
function statusWords(status: string | null): string | null {
  if (status === null) return null;
  return status === 'in_progress' ? 'running' : status.replace('_', ' ');
}

function taskLine(verb: string, t: PressureTask): string {
  const about = [t.agent, statusWords(t.status)].filter((x) => x !== null).join(', ');
  return `${verb} ${t.key}${about ? ` (${about})` : ''}${t.title ? `: ${truncate(t.title, 60)}` : ''}`;
}

export function explorerBadge(p: ExplorerPressure): ExplorerBadge {
  const changed = new Set(p.changedBy);
  const lines = [
    ...p.tasks.filter((t) => changed.has(t.key)).map((t) => taskLine('changed by', t)),
    ...p.tasks.filter((t) => !changed.has(t.key)).map((t) => taskLine('in the scope of', t)),
  ];
  if (p.others.length) lines.push(`agents' marks: ${p.others.join(', ')}`);
  return {
    badge: changed.size > 0 ? 'W' : p.tasks.length > 0 ? 'S' : '•',
    tooltip: lines.join('\n'),
    // Two tasks writing one file is what "also changed by" means: a colour of its own, not a warning.
    color: changed.size > 1 ? ExplorerBadgeColors.shared : changed.size === 1 ? ExplorerBadgeColors.changed : undefined,
  };
}
