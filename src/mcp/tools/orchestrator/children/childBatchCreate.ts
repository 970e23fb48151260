import { randomUUID } from 'node:crypto';
import { childBatchCreateInput, childBatchCreateOutput } from '../../../../core/runtime/children/childContracts';
import { createChildBatch } from '../../../../core/runtime/children/childBatch';
import { defineTool } from '../../../toolDefinition';

export const childBatchCreateTool = defineTool({
  name: 'child_batch_create',
  family: 'orchestrator',
  title: 'Spawn Codex children',
  description:
    'Start 1 to 16 Codex children (each entry as child_spawn_codex takes it). All or nothing: when one fails to start, the children this call started are stopped and the call is refused, naming the entry.',
  input: childBatchCreateInput,
  output: childBatchCreateOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  handler: async (args, { services }) => ({
    run_id: null,
    op_id: randomUUID(),
    job_id: null,
    graph_id: null,
    node_id: null,
    child_id: null,
    ...(await createChildBatch(services.engine, services.children, Date.now, args)),
  }),
});
