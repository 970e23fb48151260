import type { CommitInfo, FileChanges, SnapshotType } from '../ports';
import type { CompletionStatus, Verification } from './taskModel';
import type { TimelineCounts } from './timelineRepo';

/** Output of start_workflow (seed 000). */
export interface StartWorkflowResult {
  workflow_id: string;
  created_at: string;
}

/** Output of start_task (seed 000), plus the ids it was started under. */
export interface StartTaskResult {
  task_id: string;
  snapshot_id: string;
  snapshot_type: SnapshotType;
  started_at: string;
  workflow_id: string;
  parent_task_id: string | null;
}

/** Output of complete_task (seed 000), plus commits, timeline counts and the two snapshots. */
export interface CompleteTaskResult {
  task_id: string;
  status: CompletionStatus;
  duration_seconds: number;
  files_changed: FileChanges;
  verification: Verification;
  commits: CommitInfo[];
  counts: TimelineCounts;
  snapshot_id: string;
  end_snapshot_id: string;
  completed_at: string;
  /** The Git repository's top level the files were measured in (a worker's worktree for a task run there); null outside Git. */
  repositoryRoot: string | null;
  /** The workspace folder inside it that `files_changed` paths are relative to ('' when it is the top level). */
  workspacePath: string;
}
