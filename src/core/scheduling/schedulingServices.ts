import type { LedgerEngine } from '../ports/store';
import type { WorkspaceTruth } from '../ports/workspaceTruth';
import type { Task } from '../tasks/taskModel';
import { ChangedMarks } from './stigmergy/changedMarks';
import { scopeConflicts } from './startGates';
import { ContractNetService } from './contractNet/contractNetService';
import type { BidderDefinition } from './contractNet/contractNetService';
import { noteFieldChange } from './contractNet/contractNetWatcherStore';
import { KnowledgeService } from './knowledge/knowledgeService';
import type { KnowledgeLimits } from './knowledge/knowledgeService';
import type { KnowledgeSources } from './knowledge/knowledgeFeeds';
import { StigmergyService } from './stigmergy/stigmergyService';
import type { StigmergyOptions } from './stigmergy/stigmergyService';
import { errorMessage } from '../errors';

/**
 * Who takes which task: the stigmergy field (where agents are working now), contract-net
 * (who should take a task, conflict-aware) and the knowledge graph (plans from what worked
 * before), all over the asynchronous store port.
 */
export interface SchedulingServices {
  stigmergy: StigmergyService;
  contractNet: ContractNetService;
  knowledge: KnowledgeService;
  /**
   * What a task's end means here: its marks leave the field and its awarded calls are completed.
   * The composition root subscribes it to the task lifecycle (core/tasks/taskLifecycle.ts), so
   * every way of ending a task runs it. Harmless for a task without either; never throws.
   */
  taskEnded(taskId: number): Promise<void>;
  /** Call when a task starts: its areas (or write scopes) are marked as being changed. */
  taskStarted(taskId: number, areas: readonly string[]): Promise<void>;
  /**
   * Call when a worker or an agent starts working on a task in this process (worker_command, the
   * runner's launches, get_my_task): its write scope (its own, else the agent's) is marked, and
   * the files it changes are marked as it goes, until it ends. Never throws.
   */
  taskWorkStarted(taskId: number, agentScope?: readonly string[]): Promise<void>;
  /** The `changed:task-N` marks of running tasks (absent without a way to see their files). */
  changedMarks?: ChangedMarks;
}

/** What the scheduling services read outside the store. */
export interface SchedulingSources {
  /** Where the knowledge graph reads pipelines and the Memory Bank (knowledgeSources.ts); none: workflows only. */
  knowledge?: KnowledgeSources;
  /** The truth a task's files are measured in (its worktree, else the workspace): enables `changed:task-N` marks. */
  truth?: (task: Task) => Promise<WorkspaceTruth>;
  /** Between two looks at a running task's files (default 5 s). */
  changedMarksMs?: number;
  /** What kg_insert may add to the knowledge graph (AGENT_LEDGER_LIMITS; the defaults otherwise). */
  knowledgeLimits?: KnowledgeLimits;
}

export function createSchedulingServices(
  engine: LedgerEngine,
  definitions: () => readonly BidderDefinition[],
  clock: () => number = Date.now,
  options: StigmergyOptions = {},
  sources: SchedulingSources = {},
): SchedulingServices {
  const stigmergy = new StigmergyService(engine, clock, options);
  stigmergy.onFieldChange(noteFieldChange);
  const contractNet = new ContractNetService(engine, stigmergy, definitions, clock);
  const changedMarks = sources.truth
    ? new ChangedMarks(engine, stigmergy, sources.truth, { intervalMs: sources.changedMarksMs })
    : undefined;
  return {
    stigmergy,
    contractNet,
    knowledge: new KnowledgeService(engine, clock, sources.knowledge, sources.knowledgeLimits),
    changedMarks,
    // Best effort: the task's own change is already committed, and reads leave out the marks
    // of ended tasks anyway, so a failure here is reported and never fails the caller.
    async taskEnded(taskId) {
      changedMarks?.unwatch(taskId);
      await stigmergy.clearTask(taskId).catch(report('clear the marks of', taskId));
      await contractNet.taskEnded(taskId).catch(report('complete the calls of', taskId));
    },
    async taskStarted(taskId, areas) {
      await stigmergy.markTask(taskId, areas, 'scope').catch(report('mark the areas of', taskId));
    },
    async taskWorkStarted(taskId, agentScope = []) {
      try {
        const { writeScope } = await engine.read((db) => scopeConflicts(db, taskId, agentScope));
        await stigmergy.markTask(taskId, writeScope, 'scope');
      } catch (err) {
        report('mark the write scope of', taskId)(err);
      }
      changedMarks?.watch(taskId);
    },
  };
}

function report(what: string, taskId: number): (err: unknown) => void {
  return (err) => console.error(`[agent-ledger] could not ${what} task-${taskId}:`, errorMessage(err));
}
