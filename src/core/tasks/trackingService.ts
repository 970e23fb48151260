import type { AsyncSqlReader, LedgerEngine } from '../ports/store';
import type { FileChanges, WorkspaceTruth } from '../ports/workspaceTruth';
import type { Task } from './taskModel';
import { isFinished } from './taskModel';
import { stateError } from '../errors';
import { notFound, parseId, taskKey } from '../ids';
import type { Clock } from '../time';
import { iso, secondsBetween } from '../time';
import { appendEvent } from '../events/eventLog';
import { touchWorkflow } from '../workflows/workflowRepo';
import { childTasks, getTask, updateTask } from './taskRepo';
import { insertDecision, insertIssue, insertMilestone, timelineCounts } from './timelineRepo';
import { verifyScope, withWriteScope } from './scopeCheck';
import { pinSnapshot } from './snapshotPin';
import { liveTaskFiles, ownFiles } from './taskFiles';
import type { SharedFile } from './taskFiles';
import { startTask } from './taskStart';
import type { TaskLifecycle } from './taskLifecycle';
import type { StartGate } from './startGate';
import type {
  CompleteTaskInput,
  CompleteTaskResult,
  LogDecisionInput,
  LogDecisionResult,
  LogIssueInput,
  LogIssueResult,
  LogMilestoneInput,
  LogMilestoneResult,
  StartTaskInput,
  StartTaskResult,
} from './trackingContracts';

/**
 * The tracking tools on a task: start it (with a snapshot), log what happens during it, complete
 * it with the exact files it changed. Inputs arrive validated by their contract
 * (trackingContracts.ts). Every refusal is decided before anything is written (and checked again
 * inside the write, since another process may have moved first).
 */
export class TrackingService {
  constructor(
    private readonly db: LedgerEngine,
    /** The truth a task is measured in: its worktree when it started in one, else the workspace. */
    private readonly truth: (task?: Task) => Promise<WorkspaceTruth>,
    private readonly clock: Clock,
    /** What a task passes before start_task starts it (startGate.ts). */
    private readonly startGate: StartGate,
    /** Told when complete_task ends a task (taskLifecycle.ts). */
    private readonly lifecycle?: TaskLifecycle,
  ) {}

  startTask(input: StartTaskInput): Promise<StartTaskResult> {
    return startTask(this.db, () => this.truth(), this.clock, input, this.startGate);
  }

  /**
   * A running task's own files so far, measured in its tree, and which of them other tasks running
   * there changed too (taskFiles.ts); null for a task never started or already finished.
   */
  async liveFiles(ref: string | number): Promise<{ files: FileChanges; shared: SharedFile[] } | null> {
    const task = await this.db.read((db) => getTask(db, parseId('task', ref)));
    if (!task?.snapshot || task.filesChanged || isFinished(task.status)) return null;
    return liveTaskFiles(this.db, await this.truth(task), task);
  }

  async logDecision(input: LogDecisionInput): Promise<LogDecisionResult> {
    const taskId = parseId('task', input.task_id);
    const { category, question, chosen, reasoning } = input;
    const now = iso(this.clock.now());
    const decisionId = await this.db.write(async (tx) => {
      const task = await requireLoggable(tx, taskId, 'log a decision on');
      const id = await insertDecision(tx, {
        taskId,
        category,
        question,
        options: input.options_considered ?? [],
        chosen,
        reasoning,
        tradeOffs: input.trade_offs ?? null,
        createdAt: now,
      });
      await updateTask(tx, taskId, {}, now);
      await appendEvent(tx, {
        ts: now,
        kind: 'decision.logged',
        workflowId: task.workflowId,
        taskId,
        entity: 'decision',
        entityId: String(id),
        payload: { category, chosen },
      });
      return id;
    });
    return { task_id: taskKey(taskId), decision_id: decisionId, logged_at: now };
  }

  async logIssue(input: LogIssueInput): Promise<LogIssueResult> {
    const taskId = parseId('task', input.task_id);
    const { type, description, resolution } = input;
    const review = input.requires_human_review === true;
    const now = iso(this.clock.now());
    const issueId = await this.db.write(async (tx) => {
      const task = await requireLoggable(tx, taskId, 'log an issue on');
      const id = await insertIssue(tx, {
        taskId,
        type,
        description,
        resolution,
        requiresHumanReview: review,
        createdAt: now,
      });
      await updateTask(tx, taskId, {}, now);
      await appendEvent(tx, {
        ts: now,
        kind: 'issue.logged',
        workflowId: task.workflowId,
        taskId,
        entity: 'issue',
        entityId: String(id),
        payload: { type, description, requiresHumanReview: review },
      });
      return id;
    });
    return { task_id: taskKey(taskId), issue_id: issueId, logged_at: now, requires_human_review: review };
  }

  async logMilestone(input: LogMilestoneInput): Promise<LogMilestoneResult> {
    const taskId = parseId('task', input.task_id);
    const { message } = input;
    const progress = input.progress ?? null;
    const now = iso(this.clock.now());
    const milestoneId = await this.db.write(async (tx) => {
      const task = await requireLoggable(tx, taskId, 'log a milestone on');
      const id = await insertMilestone(tx, {
        taskId,
        message,
        progress,
        metadata: input.metadata ?? null,
        createdAt: now,
      });
      await updateTask(tx, taskId, { lastMilestone: message, ...(progress === null ? {} : { progress }) }, now);
      await appendEvent(tx, {
        ts: now,
        kind: 'milestone.logged',
        workflowId: task.workflowId,
        taskId,
        entity: 'milestone',
        entityId: String(id),
        payload: { message, progress },
      });
      return id;
    });
    return { task_id: taskKey(taskId), milestone_id: milestoneId, progress, logged_at: now };
  }

  async completeTask(input: CompleteTaskInput): Promise<CompleteTaskResult> {
    const taskId = parseId('task', input.task_id);
    const { status } = input;
    const task = await this.db.read((db) => requireCompletable(db, taskId));
    const snapshot = task.snapshot;
    if (!snapshot)
      throw stateError(
        `${taskKey(taskId)} was never started, so there is no snapshot to compare with; start it with start_task first`,
        { taskId },
      );

    const truth = await this.truth(task);
    // The sub-tasks are read while git works (the store's reads run here, git in its own process).
    const children = this.db.read((db) => childTasks(db, taskId));
    children.catch(() => undefined);
    const measured = await truth.changesSince(snapshot);
    // The ledger's own writes (another agent's memory entry, a pipeline's documents) are not this task's work.
    const changes = { ...measured, files: await this.db.read((db) => ownFiles(db, taskId, measured.files)) };
    const location = { repositoryRoot: truth.kind === 'git' ? truth.root : null, workspacePath: truth.workspacePath };
    const verification = withWriteScope(verifyScope(task.areas, changes.files), task.writeScope, changes.files);
    const running = (await children).filter((c) => !isFinished(c.status));
    if (running.length)
      verification.warnings.push(
        `⚠️ ${running.length} sub-task(s) still running: ${running.map((c) => taskKey(c.id)).join(', ')}`,
      );

    const end = this.clock.now();
    const now = iso(end);
    const duration = secondsBetween(task.startedAt ?? task.createdAt, end);
    // The end snapshot is pinned while the write runs: it only protects the object from gc.
    const pinned = pinSnapshot(truth, changes.to, `${taskKey(taskId)}-end`);
    let previous: Task['status'] = task.status;
    const counts = await this.db.write(async (tx) => {
      const current = await requireCompletable(tx, taskId);
      previous = current.status;
      await updateTask(
        tx,
        taskId,
        {
          status: status === 'failed' ? 'failed' : 'done',
          result: status,
          completedAt: now,
          durationSeconds: duration,
          outcome: input.outcome,
          metadata: input.metadata ?? null,
          filesChanged: changes.files,
          verification,
          commits: changes.commits,
          endSnapshotId: changes.to.id,
          repositoryRoot: location.repositoryRoot,
          workspacePath: location.workspacePath,
          ...(status === 'success' ? { progress: 100 } : {}),
        },
        now,
      );
      if (current.workflowId !== null) await touchWorkflow(tx, current.workflowId, now);
      await appendEvent(tx, {
        ts: now,
        kind: 'task.completed',
        workflowId: current.workflowId,
        taskId,
        payload: {
          status,
          manualReviewNeeded: input.outcome.manual_review_needed === true,
          scopeMatch: verification.scope_match,
        },
      });
      return timelineCounts(tx, taskId);
    });
    await pinned;
    await this.lifecycle?.changed(taskId, previous, status === 'failed' ? 'failed' : 'done');
    return {
      task_id: taskKey(taskId),
      status,
      duration_seconds: duration,
      files_changed: changes.files,
      verification,
      commits: changes.commits,
      counts,
      snapshot_id: snapshot.id,
      end_snapshot_id: changes.to.id,
      completed_at: now,
      ...location,
    };
  }
}

async function requireLoggable(db: AsyncSqlReader, taskId: number, what: string): Promise<Task> {
  const task = await getTask(db, taskId);
  if (!task) throw notFound('task', taskId);
  if (isFinished(task.status))
    throw stateError(
      `cannot ${what} ${taskKey(taskId)}: it is already ${task.status} (completed ${task.completedAt}); start a new task for further work`,
      { taskId: taskKey(taskId), status: task.status },
    );
  return task;
}

async function requireCompletable(db: AsyncSqlReader, taskId: number): Promise<Task> {
  const task = await getTask(db, taskId);
  if (!task) throw notFound('task', taskId);
  if (isFinished(task.status))
    throw stateError(
      `${taskKey(taskId)} is already ${task.status} (completed ${task.completedAt}); a task is completed once`,
      { taskId: taskKey(taskId), status: task.status },
    );
  return task;
}
