import { LedgerError } from '../errors';
import type { CompletionStatus } from '../tasks/taskModel';
import type { FileChanges } from '../ports/workspaceTruth';
import type { LedgerQueries } from '../tasks/ledgerQueries';
import type { TrackingService } from '../tasks/trackingService';
import { changedPaths } from '../tasks/scopeCheck';
import type { FlowTemplate } from './engine/flowTemplate';
import { forTask } from './engine/flowTemplate';
import type { PipelineState, PipelineTask } from './engine/pipelineState';
import type { PipelineStateStore } from './pipelineStateStore';
import type { PipelineDir } from './files/specsFiles';
import { readArtifact } from './files/specsFiles';
import { implementationPhase, isTaskFinished } from './engine/phaseProgress';

/**
 * Implementation tasks are ledger tasks (the tracking contract's start_task / complete_task), so the Tasks
 * view and the pipeline show the same work: each gets a snapshot when it is handed to an
 * implementer, and the exact files it changed when its review passes. Both are derived from
 * state.json and applied idempotently, so a crash between the two sides heals on the next call.
 */
export class PipelineLedger {
  constructor(
    private readonly tracking: TrackingService,
    private readonly queries: LedgerQueries,
    private readonly states: PipelineStateStore,
  ) {}

  /** Starts a ledger task (snapshot) for each task about to be implemented that has none. Returns task id → ledger id. */
  async start(
    state: PipelineState,
    tasks: readonly PipelineTask[],
    warnings: string[],
  ): Promise<Record<string, string>> {
    const ids: Record<string, string> = {};
    if (!state.workflow_id) return ids;
    for (const t of tasks) {
      if (t.ledger_task_id || t.mode === 'human') continue;
      try {
        const started = await this.tracking.startTask({
          workflow_id: state.workflow_id,
          name: `Task ${t.id}: ${t.title}`.slice(0, 500),
          goal: (t.body || t.title).slice(0, 20_000),
          // The implementer also writes its report into the pipeline folder: that is in scope too.
          areas: t.files.length ? [...t.files, state.workspace] : [],
        });
        ids[t.id] = started.task_id;
      } catch (err) {
        warnings.push(`could not start a ledger task for task ${t.id}: ${(err as Error).message}`);
      }
    }
    return ids;
  }

  /** Completes the ledger task of every finished pipeline task whose ledger task is still open. */
  async completeFinished(
    dir: PipelineDir,
    flow: FlowTemplate,
    state: PipelineState,
    warnings: string[],
  ): Promise<PipelineState> {
    const due = state.tasks.filter(
      (t) => t.ledger_task_id && !t.ledger_completed && (isTaskFinished(t) || state.status === 'abandoned'),
    );
    if (due.length === 0) return state;
    const done: Record<string, number | null> = {};
    for (const t of due) {
      const ledgerId = t.ledger_task_id as string;
      try {
        const result = await this.tracking.completeTask({
          task_id: ledgerId,
          status: completionOf(t),
          outcome: { summary: this.summary(dir, flow, state, t) },
        });
        done[t.id] = codeFiles(result.files_changed, state.workspace);
      } catch (err) {
        if (LedgerError.is(err, 'InvalidStatus')) {
          // Completed already (a crash came between the two writes): take what it recorded.
          const files = (await this.queries.task(ledgerId)).task.filesChanged;
          done[t.id] = files ? codeFiles(files, state.workspace) : null;
        } else {
          warnings.push(`could not complete ledger task ${ledgerId} of task ${t.id}: ${(err as Error).message}`);
        }
      }
    }
    if (Object.keys(done).length === 0) return state;
    return this.states.update(dir, flow, null, (current) => {
      const s = structuredClone(current);
      for (const t of s.tasks) {
        if (t.id in done && t.ledger_task_id) {
          t.ledger_completed = true;
          t.files_changed = done[t.id];
        }
      }
      return { state: s };
    });
  }

  /** The first paragraph of the implementer's report, else a sentence about the task. */
  private summary(dir: PipelineDir, flow: FlowTemplate, state: PipelineState, t: PipelineTask): string {
    const output = implementationPhase(flow)?.output;
    const report = output ? readArtifact(dir, forTask(output, t.id)) : null;
    const paragraph = (report ?? '')
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .find((p) => p && !p.startsWith('#'));
    const fallback = `Task ${t.id} of pipeline ${state.workspace}: ${t.title} (${t.status}${t.verdict ? `, review ${t.verdict}` : ''}).`;
    return (paragraph ?? fallback).slice(0, 2000);
  }
}

/** Files the task changed outside the pipeline's own folder (its reports and state.json are bookkeeping). */
function codeFiles(files: FileChanges, workspace: string): number {
  return changedPaths(files).filter((p) => p !== workspace && !p.startsWith(`${workspace}/`)).length;
}

function completionOf(t: PipelineTask): CompletionStatus {
  if (t.status === 'passed') return 'success';
  if (t.status === 'accepted') return 'partial_success';
  return 'failed';
}
