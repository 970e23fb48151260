import type { AsyncSqlReader } from '../ports/store';

/** What may let a task start anyway, and what the gate is told of the start. */
export interface StartGateOptions {
  /** Start although its dependencies are not done. */
  force?: boolean;
  /** Start although its write scope may overlap a running task's. */
  allowOverlap?: boolean;
  /** Check write scopes too (worker_command, the runner); start_task marks its areas instead. */
  checkConflicts?: boolean;
  /** The write scope of the agent about to take the task, when the task declares none. */
  agentScope?: readonly string[];
  /** The workflow whose plan graph holds the task's dependencies. */
  inWorkflow?: number;
}

/**
 * The gates a task passes before anyone starts it — its dependencies are done, what it writes
 * does not overlap a running task — checked inside the transaction that starts it, throwing the
 * coded refusal. The scheduler decides (core/scheduling/startGates.ts); the composition root
 * hands that decision to the services that start tasks, so the domain never imports the scheduler.
 */
export type StartGate = (db: AsyncSqlReader, taskId: number, options: StartGateOptions) => Promise<void>;
