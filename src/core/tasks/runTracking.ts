import type { LedgerEngine } from '../ports/store';
import type { WorkspaceTruth } from '../ports/workspaceTruth';
import type { Task } from './taskModel';
import { taskKey } from '../ids';
import type { Clock } from '../time';
import { iso } from '../time';
import { thisMachine } from '../machine';
import { appendEvent } from '../events/eventLog';
import { getTask, updateTask } from './taskRepo';
import { pinSnapshot } from './snapshotPin';
import { ownFiles } from './taskFiles';

/**
 * A run that did not come through start_task (an agent logged in by itself and took its task
 * with get_my_task) is tracked the same way: the task's start snapshot is taken when it has
 * none, and when the agent reports, the exact files and commits since that snapshot are
 * recorded on the task — what complete_task records. The runner's runs already have their
 * snapshot (worker_command takes it in the task's worktree); their report records the changes
 * there.
 */
export class RunTracking {
  constructor(
    private readonly db: LedgerEngine,
    /** The truth a task is measured in: its worktree when it started in one, else the workspace. */
    private readonly truth: (task?: Task) => Promise<WorkspaceTruth>,
    private readonly clock: Clock,
  ) {}

  /**
   * Takes the task's start snapshot unless it has one (another process may take it first: the
   * first one stays). True when this call took it: the run is this process's to watch.
   */
  async beginRun(taskId: number): Promise<boolean> {
    const task = await this.db.read((r) => getTask(r, taskId));
    if (!task || task.snapshot !== null) return false;
    const truth = await this.truth(task);
    const snapshot = await truth.snapshot(`${taskKey(taskId)}: ${task.title}`);
    const now = iso(this.clock.now());
    const took = await this.db.write(async (tx) => {
      const latest = await getTask(tx, taskId);
      if (!latest || latest.snapshot !== null) return false;
      const machine = thisMachine();
      await updateTask(
        tx,
        taskId,
        { snapshot, startedAt: latest.startedAt ?? now, machineId: machine.id, osUser: machine.user },
        now,
      );
      await appendEvent(tx, {
        ts: now,
        kind: 'task.snapshot_taken',
        workflowId: latest.workflowId,
        taskId,
        payload: { snapshot: snapshot.id, by: 'get_my_task' },
      });
      return true;
    });
    if (took) await pinSnapshot(truth, snapshot, taskKey(taskId));
    return took;
  }

  /** Records the files and commits the task changed since its start snapshot, and its end snapshot. */
  async endRun(taskId: number): Promise<void> {
    const task = await this.db.read((r) => getTask(r, taskId));
    if (!task?.snapshot) return;
    const truth = await this.truth(task);
    const measured = await truth.changesSince(task.snapshot);
    const changes = { ...measured, files: await this.db.read((db) => ownFiles(db, taskId, measured.files)) };
    const now = iso(this.clock.now());
    const pinned = pinSnapshot(truth, changes.to, `${taskKey(taskId)}-end`);
    await this.db.write(async (tx) => {
      await updateTask(
        tx,
        taskId,
        {
          filesChanged: changes.files,
          commits: changes.commits,
          endSnapshotId: changes.to.id,
          repositoryRoot: truth.kind === 'git' ? truth.root : null,
          workspacePath: truth.workspacePath,
        },
        now,
      );
    });
    await pinned;
  }
}
