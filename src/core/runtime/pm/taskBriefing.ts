import type { LedgerEngine } from '../../ports/store';
import { taskKey } from '../../ids';
import { folderFacts, workFolder } from './workFolder';
import type { WorkspaceIn } from './workFolder';
import type { AgentDirectory } from './projectRows';
import { agentDefinition } from './projectRows';
import { pmTaskRow } from './projectTaskService';
import type { ExecutionLogService } from './executionLogs';
import type { HandoffService } from './handoffService';
import type { Handoff, TaskContext } from './handoffContracts';

function contextLines(c: TaskContext): string[] {
  const lines = [`- ${c.created_at}${c.agent_id ? ` (${c.agent_id})` : ''}`];
  for (const [label, value] of [
    ['progress', c.progress],
    ['findings', c.findings],
    ['blockers', c.blockers],
    ['next steps', c.next_steps],
  ] as const) {
    if (value) lines.push(`  ${label}: ${value}`);
  }
  return lines;
}

function handoffLines(h: Handoff): string[] {
  return [
    `- ${h.handoff_id} from ${h.from_agent_id} to ${h.to_agent_id ?? 'whoever takes the task'} (${h.status}, ${h.created_at})`,
    `  summary: ${h.summary}`,
    ...(h.context ? [`  context: ${h.context}`] : []),
    ...(h.recommendations ? [`  recommendations: ${h.recommendations}`] : []),
  ];
}

/**
 * The text of the agent-PM prompts (`task_start`, `handoff_template`, `context_summary`): what
 * the ledger knows about a task, put for an agent to read. Ledger text (titles, summaries)
 * is quoted as data under labels; nothing here is run.
 */
export class TaskBriefing {
  constructor(
    private readonly engine: LedgerEngine,
    private readonly workspace: string,
    private readonly agents: AgentDirectory,
    private readonly handoffs: HandoffService,
    private readonly executions: ExecutionLogService,
    /** The workspace's folder inside a task's worktree: the task's working directory (workFolder.ts). */
    private readonly workspaceIn?: WorkspaceIn,
  ) {}

  async taskStart(taskRef: string | number, agentId: string): Promise<string> {
    const agent = agentDefinition(this.agents, agentId);
    const { task, facts } = await this.engine.read(async (db) => {
      const task = await pmTaskRow(db, taskRef);
      return { task, facts: await folderFacts(db, task.id) };
    });
    const folder = await workFolder(this.workspace, facts, this.workspaceIn);
    const ctx = await this.handoffs.taskContext(task.id, true);
    const handoffs = (await this.handoffs.ofTask(task.id)).handoffs.filter(
      (h) => h.status === 'pending' && (h.to_agent_id === null || h.to_agent_id === agent.name),
    );
    const runs = (await this.executions.ofTask(task.id)).logs;
    return [
      `You are ${agent.name}, starting ${taskKey(task.id)}.`,
      '',
      `Task: ${task.title}`,
      ...((task.description ?? task.goal) ? [`Description: ${task.description ?? task.goal}`] : []),
      `Status: ${task.status}`,
      `Working directory: ${folder}`,
      '',
      ctx.history && ctx.history.length > 0
        ? 'Earlier work (save_context), oldest first:'
        : 'No context was saved for this task yet.',
      ...(ctx.history ?? []).flatMap(contextLines),
      '',
      handoffs.length > 0 ? 'Handoffs waiting for you (accept with accept_handoff):' : 'No handoff is waiting for you.',
      ...handoffs.flatMap(handoffLines),
      '',
      runs.length > 0
        ? `Earlier runs: ${runs.map((r) => `${r.executionId} ${r.agentId} ${r.status}${r.result ? `/${r.result}` : ''}`).join(', ')}`
        : 'No earlier run.',
      '',
      'As you work: save_context with progress, findings, blockers and next steps; create_handoff when another agent should continue; report_completed with success, failed or blocked when you stop.',
    ].join('\n');
  }

  async handoffTemplate(taskRef: string | number, fromAgentId: string): Promise<string> {
    agentDefinition(this.agents, fromAgentId);
    const task = await this.engine.read((db) => pmTaskRow(db, taskRef));
    const ctx = await this.handoffs.taskContext(task.id, false);
    const others = this.agents
      .current()
      .agents.filter((a) => a.name !== fromAgentId)
      .map((a) => `${a.name}${a.description ? ` (${a.description})` : ''}`);
    return [
      `Hand ${taskKey(task.id)} (${task.title}) over from ${fromAgentId}.`,
      '',
      ...(ctx.context ? ['Latest saved context:', ...contextLines(ctx.context), ''] : []),
      `Agents who can take it: ${others.join(', ') || 'none besides you'}.`,
      '',
      'Call create_handoff with:',
      `  task_id: "${taskKey(task.id)}"`,
      `  from_agent_id: "${fromAgentId}"`,
      '  to_agent_id: the agent who continues (leave it out for whoever takes the task next)',
      '  summary: what is done and what is left, in a few sentences',
      '  context: files, decisions and state the next agent needs',
      '  recommendations: what the next agent should do first, and what to avoid',
    ].join('\n');
  }

  async contextSummary(taskRef: string | number): Promise<string> {
    const task = await this.engine.read((db) => pmTaskRow(db, taskRef));
    const ctx = await this.handoffs.taskContext(task.id, true);
    const handoffs = (await this.handoffs.ofTask(task.id)).handoffs;
    const runs = (await this.executions.ofTask(task.id)).logs;
    return [
      `Context of ${taskKey(task.id)}: ${task.title} (${task.status}${task.assignee ? `, assigned to ${task.assignee}` : ''})`,
      '',
      `Saved contexts (${ctx.history?.length ?? 0}), oldest first:`,
      ...(ctx.history ?? []).flatMap(contextLines),
      '',
      `Handoffs (${handoffs.length}), newest first:`,
      ...handoffs.flatMap(handoffLines),
      '',
      `Runs (${runs.length}), newest first:`,
      ...runs.map(
        (r) =>
          `- ${r.executionId} ${r.agentId}: ${r.status}${r.result ? ` (${r.result})` : ''}, started ${r.startedAt}${r.durationSeconds !== null ? `, ${r.durationSeconds} s` : ''}${r.costUsd !== null ? `, $${r.costUsd}` : ''}`,
      ),
      '',
      'Summarise where the task stands, what was learned, what blocks it and what should happen next.',
    ].join('\n');
  }
}
