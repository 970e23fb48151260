import type { AgentLaunch } from './agentLaunch';
import type { AgentPermissions } from './agentPermissions';

/** Agent definitions of the task-management contract: who works on a task, with which client, model and scope. */
export const agentClients = ['claude-code', 'codex', 'gemini-cli'] as const;
export type AgentClient = (typeof agentClients)[number];

export interface AgentScope {
  /** Globs the agent may read (checked out in its worktree). */
  read: string[];
  /** Globs the agent may change; complete_task flags changes elsewhere. `[]` = read only. */
  write: string[];
  /** Globs never checked out nor writable, even when `read`/`write` match. */
  exclude: string[];
}

export interface AgentDefinition {
  name: string;
  description: string | null;
  client: AgentClient;
  model: string | null;
  scope: AgentScope;
  /** What it may do when it runs unattended (agentPermissions.ts). */
  permissions: AgentPermissions;
  config: Record<string, unknown>;
  /** How the runner starts it (the file's `launch:` block, or `config: launch:`); absent: its client's own launch. */
  launch?: AgentLaunch;
  promptContent: string;
  /** Workspace-relative file the definition was read from (or will be written to, for a default not yet on disk). */
  file: string;
}

/** A file of the agents folder that could not be used, and why. */
export interface AgentProblem {
  file: string;
  message: string;
}

export interface AgentList {
  agents: AgentDefinition[];
  problems: AgentProblem[];
}
