import type { LedgerEngine } from '../ports';
import { ContractNetService } from './contractNetService';
import type { BidderDefinition } from './contractNetService';
import { noteFieldChange } from './contractNetWatcherStore';
import { KnowledgeService } from './knowledgeService';
import type { KnowledgeSources } from './knowledgeFeeds';
import { StigmergyService } from './stigmergyService';
import type { StigmergyOptions } from './stigmergyService';
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
   * The task lifecycle's hook: call when a task ends (complete_task, a cancel): its marks leave
   * the field and its awarded calls are completed. Harmless for a task without either; never throws.
   */
  taskEnded(taskId: number): Promise<void>;
  /** Call when a task starts: its areas (or write scopes) are marked as being changed. */
  taskStarted(taskId: number, areas: readonly string[]): Promise<void>;
}

export function createSchedulingServices(
  engine: LedgerEngine,
  definitions: () => readonly BidderDefinition[],
  clock: () => number = Date.now,
  options: StigmergyOptions = {},
  /** Where the knowledge graph reads pipelines and the Memory Bank (knowledgeSources.ts); none: workflows only. */
  knowledgeSources: KnowledgeSources = {},
): SchedulingServices {
  const stigmergy = new StigmergyService(engine, clock, options);
  stigmergy.onFieldChange(noteFieldChange);
  const contractNet = new ContractNetService(engine, stigmergy, definitions, clock);
  return {
    stigmergy,
    contractNet,
    knowledge: new KnowledgeService(engine, clock, knowledgeSources),
    // Best effort: the task's own change is already committed, and reads leave out the marks
    // of ended tasks anyway, so a failure here is reported and never fails the caller.
    async taskEnded(taskId) {
      await stigmergy.clearTask(taskId).catch(report('clear the marks of', taskId));
      await contractNet.taskEnded(taskId).catch(report('complete the calls of', taskId));
    },
    async taskStarted(taskId, areas) {
      await stigmergy.markTask(taskId, areas, 'scope').catch(report('mark the areas of', taskId));
    },
  };
}

function report(what: string, taskId: number): (err: unknown) => void {
  return (err) => console.error(`[agent-ledger] could not ${what} task-${taskId}:`, errorMessage(err));
}
