import type { AsyncSqlReader } from '../../ports/store';
import type { AnswerRecord } from '../idempotency/idempotencyRuns';
import { readVersion } from './graphStore';
import type { PlanGraph } from './planGraph';

/** What graph_patch and graph_batch_mutate answer, as far as their kept record is concerned. */
interface GraphAnswer {
  graph_id: string;
  committed_version: number;
  graph: PlanGraph;
}

/** Stands for the graph in a kept answer: the committed version a replay reads again. */
interface VersionRef {
  kept_version: number;
}

const isVersionRef = (v: unknown): v is VersionRef =>
  typeof v === 'object' && v !== null && typeof (v as VersionRef).kept_version === 'number' && !('nodes' in v);

/**
 * How graph_patch and graph_batch_mutate keep their answer under an idempotency_key: the answer
 * with its graph replaced by the number of the version it showed (every committed version stays
 * in the graph's history, graphStore.ts), so a 1,000-node graph is not stored once more per key.
 * A replay reads that version back in its own transaction: the same graph in the same place of
 * the answer. Version 0 was never committed (an empty or workflow-derived graph nothing changed):
 * that answer is kept whole, as are records kept before this (they replay as they are).
 */
export const graphAnswerRecord = {
  pack<R extends GraphAnswer>(answer: R): unknown {
    return answer.committed_version > 0
      ? { ...answer, graph: { kept_version: answer.committed_version } satisfies VersionRef }
      : answer;
  },
  async unpack<R extends GraphAnswer>(db: AsyncSqlReader, kept: unknown): Promise<R> {
    const answer = kept as Omit<R, 'graph'> & { graph: PlanGraph | VersionRef };
    if (!isVersionRef(answer.graph)) return answer as R;
    const stored = await readVersion(db, answer.graph_id, answer.graph.kept_version);
    if (!stored)
      throw new Error(`plan graph '${answer.graph_id}' has no version ${answer.graph.kept_version} to replay`);
    // The graph goes back in its own place: the replay has the first answer's key order.
    return { ...answer, graph: stored.graph } as R;
  },
} satisfies AnswerRecord<GraphAnswer>;
