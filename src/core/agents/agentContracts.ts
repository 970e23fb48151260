import { z } from 'zod';
import { agentName, fileProblemOutput } from '../contracts/common';
import { agentClients } from './agentModel';
import { permissionLevels } from './agentPermissions';

/** agent_list and agent_get (the task-management contract). */
export const agentListInput = z.strictObject({});
export const agentGetInput = z.strictObject({ name: agentName });

export const scopeOutput = z.object({
  read: z.array(z.string()),
  write: z.array(z.string()),
  exclude: z.array(z.string()),
});

/** agent_list's row: the task-management contract's fields (name, client, model, scope) plus description and file. */
export const agentSummaryOutput = z.object({
  name: z.string(),
  description: z.string().nullable(),
  client: z.enum(agentClients),
  model: z.string().nullable(),
  scope: scopeOutput,
  file: z.string().describe('Workspace-relative file of the definition'),
});

export const agentListOutput = z.object({ agents: z.array(agentSummaryOutput), problems: z.array(fileProblemOutput) });

/** agent_get: the whole definition. */
export const agentGetOutput = agentSummaryOutput.extend({
  permissions: z
    .object({
      level: z.enum(permissionLevels),
      commands: z.array(z.string()),
      never: z.array(z.string()),
    })
    .describe('What it may do when it runs unattended: its level, and commands added to it or forbidden'),
  config: z.record(z.string(), z.unknown()),
  promptContent: z.string(),
});

export type AgentSummary = z.infer<typeof agentSummaryOutput>;
export type AgentListResult = z.infer<typeof agentListOutput>;
