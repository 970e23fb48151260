import type { ResourceTemplateDefinition } from './resourceDefinition';
import { schemeMatcher } from './resourceDefinition';

const uriOf = (name: string): string => `agent://${encodeURIComponent(name)}`;

/** `agent://{name}`: an agent definition as YAML, in the task-management contract's format (long prompts shortened). */
export const agentResource: ResourceTemplateDefinition = {
  name: 'agent',
  uriTemplate: 'agent://{name}',
  title: 'Agent',
  description: 'Agent definition: client, model, scope (read/write/exclude), config and prompt, as YAML',
  mimeType: 'application/yaml',
  match: schemeMatcher('agent'),
  list: ({ agents }) =>
    agents.current().agents.map((a) => ({
      uri: uriOf(a.name),
      name: `Agent: ${a.name}`,
      title: a.description ?? a.name,
      description: `Agent definition for ${a.name}`,
      mimeType: 'application/yaml',
    })),
  // The YAML writer is loaded at the first read, not when the server starts.
  read: async ({ agents }, name) => (await import('../../core/agents/agentFiles.js')).agentYaml(agents.lookup(name)),
  affected: (e) => (e.entity === 'agent' && e.entityId ? [uriOf(e.entityId)] : []),
  changesList: (e) => e.kind === 'agent.removed' || (e.kind === 'agent.indexed' && e.payload.added === true),
};
