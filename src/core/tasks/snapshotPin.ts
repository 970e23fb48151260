import type { Snapshot, WorkspaceTruth } from '../ports/workspaceTruth';

/**
 * Pins a snapshot against `git gc` under a readable name (`task-12`, `task-12-end`). The ledger
 * stays right without the pin, so a failure is only reported: starting or completing a task
 * never fails for it.
 */
export async function pinSnapshot(truth: WorkspaceTruth, snapshot: Snapshot, name: string): Promise<void> {
  try {
    await truth.keep(snapshot, name);
  } catch (err) {
    console.error(`[agent-ledger] could not pin snapshot ${snapshot.id} as ${name}:`, err);
  }
}
