import type { MemoryBank } from '../../memory/memoryBank';
import type { PipelineDetail } from '../../pipelines/pipelineQueries';
import type { PipelineFacts } from './knowledgeExtractors';
import type { KnowledgeSources } from './knowledgeFeeds';

/**
 * The knowledge graph's sources that live in files: a pipeline's state.json (read through the
 * pipeline service's detail, which knows its flow: labels, kinds) and the Memory Bank's entries.
 */
export function knowledgeSources(deps: {
  pipelines: { detail(workspace: string): Promise<PipelineDetail> };
  memory: Pick<MemoryBank, 'current'>;
}): KnowledgeSources {
  return {
    async pipeline(workspace) {
      try {
        return pipelineFactsOf(await deps.pipelines.detail(workspace));
      } catch {
        return null; // not on this machine (a team ledger), or unreadable: the feed falls back to the plan
      }
    },
    memories: () => deps.memory.current({ status: 'active' }).memories,
  };
}

/** What the knowledge graph reads of a pipeline's detail. */
export function pipelineFactsOf(detail: PipelineDetail): PipelineFacts {
  const phases: Record<string, { status: string; metrics: { duration_ms: number } }> = {};
  const phaseLabels: Record<string, string> = {};
  for (const p of detail.phases) {
    phases[p.id] = { status: p.status, metrics: { duration_ms: p.durationMs } };
    phaseLabels[p.id] = p.label;
  }
  return {
    spec_name: detail.specName,
    title: detail.title,
    status: detail.status,
    workspace: detail.workspace,
    phases,
    phaseLabels,
    implementationPhase: detail.phases.find((p) => p.kind === 'implementation')?.id ?? null,
    tasks: detail.tasks.map((t) => ({
      id: t.id,
      title: t.title,
      mode: t.mode,
      status: t.status,
      ledger_task_id: t.ledgerTaskId,
    })),
  };
}
