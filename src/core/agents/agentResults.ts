import type { AgentDefinition, AgentProblem } from './agentModel';
import type { AgentRegistry } from './agentRegistry';

/** agent_list's row: seed 002's fields (name, client, model, scope) plus description and file. */
export interface AgentSummary {
  name: string;
  description: string | null;
  client: AgentDefinition['client'];
  model: string | null;
  scope: AgentDefinition['scope'];
  file: string;
}

export function agentSummary(a: AgentDefinition): AgentSummary {
  return { name: a.name, description: a.description, client: a.client, model: a.model, scope: a.scope, file: a.file };
}

/** agent_list (MCP) and `agent list --json` (CLI). */
export async function agentListResult(registry: AgentRegistry): Promise<{ agents: AgentSummary[]; problems: AgentProblem[] }> {
  const { agents, problems } = await registry.list();
  return { agents: agents.map(agentSummary), problems };
}

/** agent_get (MCP) and `agent get --json` (CLI): the whole definition. */
export async function agentGetResult(registry: AgentRegistry, name: string): Promise<AgentDefinition> {
  return registry.get(name);
}
