import type { AgentClient } from '../../agents/agentModel';

/** The agent-PM contract's `ai_type` of an agent definition's client: which CLI the runner starts. */
export function aiTypeOf(client: AgentClient): 'claude' | 'codex' | 'gemini' {
  return client === 'claude-code' ? 'claude' : client === 'codex' ? 'codex' : 'gemini';
}
