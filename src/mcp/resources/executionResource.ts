import type { ResourceTemplateDefinition } from './resourceDefinition';
import { schemeMatcher } from './resourceDefinition';

/** `execution://{id}`: one run of an agent (id `exec-3` or `3`). */
export const executionResource: ResourceTemplateDefinition = {
  name: 'execution',
  uriTemplate: 'execution://{id}',
  title: 'Execution log',
  description: 'One run of an agent: status, result, exit code or signal, duration, tokens, cost, summary and its log file',
  mimeType: 'application/json',
  match: schemeMatcher('execution'),
  list: async ({ executions }) =>
    (await executions.list({ limit: 20 })).map((l) => ({
      uri: `execution://${l.executionId}`,
      name: `Execution ${l.executionId}`,
      title: `${l.agentId} on ${l.taskId ?? 'no task'}`,
      description: `Run of ${l.agentId} (${l.status})`,
      mimeType: 'application/json',
    })),
  read: async ({ executions }, id) => JSON.stringify(await executions.get(id), null, 2),
  affected: (e) => (e.entity === 'execution' && e.entityId ? [`execution://exec-${e.entityId}`, `execution://${e.entityId}`] : []),
  changesList: (e) => e.kind === 'execution.started',
};
