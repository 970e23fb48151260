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
    'Pipelines: pipeline_init, then pipeline_init_with_context, then loop on pipeline_next_action — execute exactly the action it returns and report back; never decide the next phase yourself. Human checkpoints are decided by a person in the editor or the CLI.',
};
