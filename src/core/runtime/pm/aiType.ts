import type { AgentClient } from '../../agents/agentModel';

/** The agent-PM contract's `ai_type` of an agent definition's client: which CLI the runner starts. */
export function aiTypeOf(client: AgentClient): 'claude' | 'codex' | 'gemini' {
  return client === 'claude-code' ? 'claude' : client === 'codex' ? 'codex' : 'gemini';
}

/** The `ai_type` of a run: the client its task asked for (`task create --agent … --client codex`), else its agent's. */
export function aiTypeOfRun(client: AgentClient, asked: string | null): 'claude' | 'codex' | 'gemini' {
  return asked === 'claude' || asked === 'codex' || asked === 'gemini' ? asked : aiTypeOf(client);
}

/** An agent definition's client of an `ai_type` (what a session records). */
export function agentClientOf(aiType: 'claude' | 'codex' | 'gemini'): AgentClient {
  return aiType === 'claude' ? 'claude-code' : aiType === 'gemini' ? 'gemini-cli' : 'codex';
}
