// Types of scripts/agentClis.mjs, for the test helpers that import it.
export interface AgentCliPin {
  package: string;
  version: string;
  program: string;
  viaNode: boolean;
  check?: string;
}
export type AgentCliName = 'claude' | 'codex' | 'gemini';
export const agentClisDir: string;
export const agentClis: Record<AgentCliName, AgentCliPin>;
export interface AgentCliStatus {
  name: AgentCliName;
  package: string;
  version: string;
  installedVersion: string | null;
  ok: boolean;
  program: string;
  viaNode: boolean;
  bin: string;
}
export function agentCliStatus(name: AgentCliName, dir?: string): AgentCliStatus;
export function installAgentCli(
  name: AgentCliName,
  options?: { dir?: string; log?: (message: string) => void },
): AgentCliStatus;
