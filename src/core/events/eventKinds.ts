/**
 * The families of the events log: the part of a kind before its first `.`, `_` or `:`
 * (`task.started` → task, `bb_set_replayed` → bb). `events_subscribe` filters on them (`cats`) and
 * refuses a family not listed here; every function that appends an event takes an
 * {@link EventKind}, so the compiler insists that each kind belongs to one of them.
 */
export const eventCategories = [
  'agent',
  'bb',
  'blackboard',
  'bt', // BT_RUN: a plan run's lifecycle (core/runtime/planRuns)
  'child',
  'cnp',
  'context',
  'decision',
  'execution',
  'graph',
  'handoff',
  'issue',
  'knowledge',
  'memory',
  'milestone',
  'pipeline',
  'plan', // plan_run_bt_replayed, plan_run_reactive_replayed: a retried call with its idempotency key
  'project',
  'runner',
  'scheduler', // SCHEDULER: a plan run's scheduler telemetry
  'session',
  'setting', // setting.changed: the ledger's own switches (checkpoints asked in the client)
  // start_workflow_replayed, start_task_replayed: a retried call with its idempotency key
  'start',
  'stigmergy',
  'task',
  'token', // token.created, token.revoked: bearer tokens of the HTTP server
  'tx', // tx_begin_replayed (a transaction's own events are graph.tx_*)
  'worker', // worker_command_replayed
  'workflow',
  'worktree',
] as const;

export type EventCategory = (typeof eventCategories)[number];

/**
 * A kind of event: its family, then `.`, `_` or `:` and what happened; or one of the kinds the
 * orchestrator contract names as they are (`BT_RUN`, `SCHEDULER`: what happened is their `msg`).
 */
export type EventKind = `${EventCategory}${'.' | '_' | ':'}${string}` | 'BT_RUN' | 'SCHEDULER';

/** The family of a kind: `task.started` → `task`, `graph_batch_mutate_replayed` → `graph`. */
export function eventCategory(kind: string): string {
  const trimmed = kind.trim();
  const cut = trimmed.search(/[._:]/);
  return (cut > 0 ? trimmed.slice(0, cut) : trimmed).toLowerCase();
}

/** `text` as a kind, checked: for kinds made at run time from a name (a tool's replays). */
export function toEventKind(text: string): EventKind {
  if (!(eventCategories as readonly string[]).includes(eventCategory(text)) || !/[._:]/.test(text))
    throw new Error(`event kind "${text}" belongs to no family of eventCategories (core/events/eventKinds.ts)`);
  return text as EventKind;
}
