import type { FamilyInfo } from '../../toolDefinition';

/**
 * Pipelines: the engine decides every phase; the agent executes the action it gets; a person decides at checkpoints.
 * What the server and the extension know of the family without loading its tools (families.ts).
 */
export const pipelineInfo: FamilyInfo = {
  name: 'pipeline',
  description: 'Pipelines: a deterministic phase engine with human checkpoints',
  enabledByDefault: true,
  instructions:
    'Pipelines (phases run by the engine): pipeline_init, then pipeline_init_with_context, then call pipeline_next_action in a loop, doing exactly the action it returns and reporting back; never choose the next phase yourself. A person decides checkpoints (wait_ms waits for the decision).',
};
