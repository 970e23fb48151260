import type { ToolFamily } from '../../toolDefinition';

/** Coordination of several agents: blackboard, event streams, resources watch, plan graphs (tools to come). */
export const orchestratorFamily: ToolFamily = {
  name: 'orchestrator',
  description: 'Orchestration: blackboard, event streams, resources watch, idempotency',
  enabledByDefault: false,
  tools: [],
};
