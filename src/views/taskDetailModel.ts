import type { Services } from '../app/services';
import type { FileChanges } from '../core/ports/workspaceTruth';
import type { Task, TimelineEntry } from '../core/tasks/taskModel';
import { taskKey, workflowKey } from '../core/ids';
import { verifyScope } from '../core/tasks/scopeCheck';
import type { ChangedFile, TaskDetailModel, TaskRef, TimelineItem } from '../shared/protocol';

/**
 * Builds what the task detail webview shows from the ledger. `liveFiles` are the changes of a
 * running task measured against its snapshot (see {@link measureLiveFiles}); a finished task
 * shows what complete_task recorded.
 */
export async function taskDetailModel(
  services: Services,
  folder: { name: string; root: string },
  taskId: number,
  live: LiveFiles | null,
): Promise<TaskDetailModel> {
  const detail = await services.queries.task(taskId);
  const { task } = detail;
  const liveFiles = live?.files ?? null;
  const workflow = task.workflowId === null ? null : (await services.queries.workflow(task.workflowId)).workflow;
  const parent = task.parentId === null ? null : (await services.queries.task(task.parentId)).task;
  const recorded = task.filesChanged;
  const files = recorded ?? liveFiles;
  const verification = recorded ? task.verification : files ? verifyScope(task.areas, files) : null;
  const outside = new Set(verification?.unexpected_files ?? []);
  const shared = recorded ? (await services.tasks.answer(taskId)).alsoChangedBy : (live?.shared ?? []);
  const answered = await services.reviews.answered(task.id);
  const rewind = await services.rewind.lastRewind(task.id);
  const cost = await services.costs.ofTask(task.id);
  const pending = await services.reviews.pending(task.id);
  return {
    folder: folder.root,
    folderName: folder.name,
    task: {
      ...ref(task),
      goal: task.goal,
      description: task.description,
      areas: task.areas,
      progress: task.progress,
      lastMilestone: task.lastMilestone,
      assignee: task.assignee,
      priority: task.priority,
      type: task.type,
      labels: task.labels,
      startedAt: task.startedAt,
      completedAt: task.completedAt,
      durationSeconds: task.durationSeconds,
      snapshot: task.snapshot ? { type: task.snapshot.type, id: task.snapshot.id } : null,
      worktree: task.worktree,
    },
    workflow: workflow ? { key: workflowKey(workflow.id), name: workflow.name } : null,
    parent: parent ? ref(parent) : null,
    subTasks: detail.children.map(ref),
    outcome: task.outcome,
    timeline: detail.timeline.map(timelineItem),
    filesSource: recorded ? 'recorded' : liveFiles ? 'live' : 'none',
    files: files ? changedFiles(files, outside, new Map(shared.map((s) => [s.path, s.tasks]))) : [],
    warnings: verification?.warnings ?? [],
    commits: (task.commits ?? []).map((c) => ({ sha: c.sha, subject: c.subject })),
    cost: cost.runs > 0 ? cost : null,
    canRewind: task.snapshot?.type === 'git' && !task.worktree,
    lastRewind: rewind ? { at: rewind.at, paths: rewind.paths, undoable: rewind.undoable } : null,
    hold: task.hold,
    // A held task's reason is the hold; the runner's word is stale once the task ends.
    waiting:
      task.waiting && !task.hold && (task.status === 'open' || task.status === 'in_progress')
        ? { reason: task.waiting.reason, detail: task.waiting.detail, since: task.waiting.since }
        : null,
    review:
      pending.manualReview || pending.reviewIssue
        ? { manualReview: pending.manualReview, issue: pending.reviewIssue?.description ?? null }
        : null,
    reviewed: answered
      ? { verdict: answered.verdict, by: answered.reviewedBy, at: answered.reviewedAt, note: answered.note }
      : null,
  };
}

/** A running task's own changes so far, and those other running tasks in its tree changed too. */
export interface LiveFiles {
  files: FileChanges;
  shared: { path: string; tasks: string[] }[];
}

/**
 * A running task's changes so far: a fresh snapshot of its tree compared with the task's, without
 * the ledger's own files (another process's memory entry or pipeline document is not its work).
 */
export async function measureLiveFiles(services: Services, taskId: number): Promise<LiveFiles | null> {
  const { task } = await services.queries.task(taskId);
  // A worktree's files open against that worktree, which this view's diffs do not (yet) follow.
  if (task.worktree) return null;
  return services.tracking.liveFiles(taskId);
}

function ref(t: Task): TaskRef {
  return { id: t.id, key: taskKey(t.id), title: t.title, status: t.status, result: t.result };
}

function changedFiles(files: FileChanges, outside: Set<string>, shared: Map<string, string[]>): ChangedFile[] {
  const also = (p: string) => (shared.has(p) ? { alsoChangedBy: shared.get(p) } : {});
  return [
    ...files.added.map((p): ChangedFile => ({ kind: 'added', path: p, outOfScope: outside.has(p), ...also(p) })),
    ...files.modified.map((p): ChangedFile => ({ kind: 'modified', path: p, outOfScope: outside.has(p), ...also(p) })),
    ...files.deleted.map((p): ChangedFile => ({ kind: 'deleted', path: p, outOfScope: outside.has(p), ...also(p) })),
    ...files.renamed.map((r): ChangedFile => ({
      kind: 'renamed',
      path: r.to,
      from: r.from,
      outOfScope: outside.has(r.to),
      ...also(r.to),
    })),
  ];
}

function timelineItem(e: TimelineEntry): TimelineItem {
  switch (e.kind) {
    case 'milestone':
      return { kind: 'milestone', id: e.id, at: e.createdAt, title: e.message, progress: e.progress };
    case 'decision':
      return {
        kind: 'decision',
        id: e.id,
        at: e.createdAt,
        title: e.question,
        category: e.category,
        options: e.options,
        chosen: e.chosen,
        reasoning: e.reasoning,
        tradeOffs: e.tradeOffs,
      };
    case 'issue':
      return {
        kind: 'issue',
        id: e.id,
        at: e.createdAt,
        title: e.description,
        issueType: e.type,
        resolution: e.resolution,
        requiresHumanReview: e.requiresHumanReview,
      };
  }
}
