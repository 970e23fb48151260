/**
 * `agent-ledger task land <id>`: a person takes a done task's work into its base branch — merged
 * (fast-forward when it can) or rebased onto it, or pushed as a pull request — and the task's
 * worktree goes. Landing is a person's decision: it is recorded as the person who ran it and is
 * no MCP tool, so no agent's credentials can make it. Every refusal is coded and changes nothing:
 * a task not done, landed already, without a branch or with nothing on it, a worktree with
 * uncommitted changes or an agent still working there, a conflict (naming the files), a checkout
 * of the base branch with uncommitted changes in files the landing changes.
 */
import type { LedgerEngine } from '../ports/store';
import type { Worktrees } from '../ports/worktrees';
import type { Landed, Landing, PullRequests } from '../ports/landing';
import { LedgerError } from '../errors';
import { notFound, parseId, taskKey } from '../ids';
import type { Clock } from '../time';
import { iso } from '../time';
import { appendEvent } from '../events/eventLog';
import { fromJson } from '../json';
import { thisMachine } from '../machine';
import { getTask } from '../tasks/taskRepo';
import { runningSessions } from '../sessions/sessionRepo';
import { markWorktreeRemoved, worktreeFolder } from './worktreeRepo';

export interface LandInput {
  taskId: number | string;
  /** The branch to land on; default: the one the task's worktree was made from. */
  onto?: string;
  /** Replay the task's commits instead of a merge commit (when it cannot fast-forward). */
  rebase?: boolean;
  /** Push the branch and open a pull request (GitHub CLI) instead of landing here. */
  pullRequest?: boolean;
  /** Who lands it: the person running the command (default: this machine's user). */
  by?: string;
}

export interface LandResult {
  taskId: string;
  title: string;
  branch: string;
  onto: string;
  method: Landed['method'] | 'pull-request';
  /** `onto`'s commit before and after (equal for a pull request). */
  from: string;
  to: string;
  files: string[];
  commits: number;
  by: string;
  landedAt: string;
  worktreeRemoved: boolean;
  branchDeleted: boolean;
  pullRequest: { url: string } | null;
}

interface WorktreeRow {
  path: string;
  branch: string;
  base_commit: string;
  removed_at: string | null;
}

export class TaskLanding {
  constructor(
    private readonly db: LedgerEngine,
    private readonly worktrees: Worktrees,
    private readonly landing: Landing,
    private readonly pullRequests: PullRequests,
    private readonly clock: Clock,
    private readonly workspace: string,
  ) {}

  async land(input: LandInput): Promise<LandResult> {
    const taskId = parseId('task', input.taskId);
    const key = taskKey(taskId);
    const { task, worktree, landedBefore, baseBranch } = await this.db.read(async (db) => {
      const task = await getTask(db, taskId);
      if (!task) throw notFound('task', taskId);
      const worktree = await db.get<WorktreeRow>(
        'SELECT path, branch, base_commit, removed_at FROM worktrees WHERE task_id = ?',
        [taskId],
      );
      const landed = await db.get<{ payload: string }>(
        "SELECT payload FROM events WHERE task_id = ? AND kind = 'task.landed' ORDER BY seq DESC LIMIT 1",
        [taskId],
      );
      const created = await db.get<{ payload: string }>(
        "SELECT payload FROM events WHERE task_id = ? AND kind = 'worktree.created' ORDER BY seq DESC LIMIT 1",
        [taskId],
      );
      const base = fromJson<{ baseBranch?: string | null }>(created?.payload ?? '{}', {}).baseBranch ?? null;
      return {
        task,
        worktree,
        landedBefore: landed ? fromJson<{ onto?: string }>(landed.payload, {}) : null,
        baseBranch: base,
      };
    });
    const refuse = (reason: string, message: string, data: Record<string, unknown> = {}): never => {
      throw new LedgerError('InvalidStatus', message, { reason, task_id: key, ...data });
    };
    if (task.status !== 'done')
      refuse(
        'notDone',
        `${key} is ${task.status}: only a done task lands (its agent reports it done, or complete it yourself first)`,
        { status: task.status },
      );
    if (landedBefore)
      refuse('alreadyLanded', `${key} was landed already${landedBefore.onto ? ` on ${landedBefore.onto}` : ''}`);
    if (!worktree)
      refuse(
        'noBranch',
        `${key} has no branch of its own: it was not worked on in a worktree, so there is nothing to land`,
      );
    const { branch } = worktree!;
    const onto = input.onto ?? baseBranch ?? (await this.landing.currentBranch());
    if (!onto)
      throw new LedgerError(
        'ValidationError',
        `the workspace is on no branch: say which branch ${key} lands on with --onto`,
        {
          reason: 'noBaseBranch',
        },
      );
    const folder = worktree!.removed_at === null ? worktreeFolder(this.workspace, worktree!.path) : null;
    const state = folder ? await this.worktrees.inspect(folder, branch) : null;
    if (folder && state?.exists) {
      const running = (await this.db.read((db) => runningSessions(db, taskId))).filter(
        (s) => s.worktree === worktree!.path,
      );
      if (running.length > 0)
        refuse(
          'sessionRunning',
          `an agent still works on ${key} (session ${running.map((s) => s.id).join(', ')}): land it once it has ended`,
          {
            sessions: running.map((s) => s.id),
          },
        );
      const dirty = await this.landing.uncommittedFiles(folder);
      if (dirty.length > 0)
        refuse(
          'uncommittedChanges',
          `the worktree of ${key} has uncommitted changes (${dirty.join(', ')}): commit them on ${branch}, or discard them, then land again`,
          { files: dirty, worktree: worktree!.path },
        );
    }
    const tip = await this.landing.tipOf(branch);
    if (tip === worktree!.base_commit)
      refuse(
        'nothingToLand',
        `${branch} has no commit beyond the one it started from: ${key} changed nothing to land`,
        { branch },
      );
    const by = input.by?.trim() || thisMachine().user;

    if (input.pullRequest) {
      const { url } = await this.pullRequests.open({
        branch,
        onto,
        title: `${key}: ${task.title}`,
        body: `${task.description ?? task.goal ?? ''}\n\nWorked on by ${task.assignee ?? 'an agent'}; recorded in Agent Ledger as ${key}.`.trim(),
      });
      const landedAt = iso(this.clock.now());
      const base = (await this.landing.tipOf(onto)) ?? '';
      await this.record(
        taskId,
        { onto, branch, method: 'pull-request', by, from: base, to: base, files: [], commits: 0, pullRequest: url },
        landedAt,
      );
      return {
        taskId: key,
        title: task.title,
        branch,
        onto,
        method: 'pull-request',
        from: base,
        to: base,
        files: [],
        commits: 0,
        by,
        landedAt,
        // The worktree stays: review may ask for changes, made on the same branch.
        worktreeRemoved: false,
        branchDeleted: false,
        pullRequest: { url },
      };
    }

    const landed = await this.landing.land({
      branch,
      onto,
      rebase: input.rebase === true,
      message: `Land ${key}: ${task.title.replace(/\s+/g, ' ')}\n\nLanded by ${by} from ${branch} (Agent Ledger).`,
    });
    const landedAt = iso(this.clock.now());
    let worktreeRemoved = false;
    let branchDeleted = false;
    if (folder && state?.exists) {
      const removal = await this.worktrees.remove(folder, { force: false });
      worktreeRemoved = true;
      branchDeleted = removal.branchDeleted;
      await this.db.write(async (tx) => {
        await markWorktreeRemoved(tx, taskId, landedAt, removal.freedBytes);
        await appendEvent(tx, {
          ts: landedAt,
          kind: 'worktree.removed',
          taskId,
          entity: 'worktree',
          entityId: worktree!.path,
          payload: { reason: 'landed', freedBytes: removal.freedBytes, branch },
        });
      });
    }
    // A merged branch went with its worktree; a rebased one first points at what landed.
    if (!branchDeleted)
      branchDeleted = await this.landing.retireBranch(branch, landed.method === 'rebase' ? landed.to : null);
    await this.record(
      taskId,
      {
        onto,
        branch,
        method: landed.method,
        by,
        from: landed.from,
        to: landed.to,
        files: landed.files,
        commits: landed.commits,
        pullRequest: null,
      },
      landedAt,
    );
    return {
      taskId: key,
      title: task.title,
      branch,
      onto,
      method: landed.method,
      from: landed.from,
      to: landed.to,
      files: landed.files,
      commits: landed.commits,
      by,
      landedAt,
      worktreeRemoved,
      branchDeleted,
      pullRequest: null,
    };
  }

  private async record(taskId: number, payload: Record<string, unknown>, ts: string): Promise<void> {
    await this.db.write(async (tx) => {
      await appendEvent(tx, { ts, kind: 'task.landed', taskId, entity: 'task', entityId: taskKey(taskId), payload });
      await tx.run('UPDATE tasks SET updated_at = ? WHERE id = ?', [ts, taskId]);
    });
  }
}
