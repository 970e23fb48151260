import type { LedgerEngine } from '../../ports/store';
import { validationError } from '../../errors';
import { taskKey, executionKey, parsePmId, projectKey } from '../../ids';
import { absoluteDirectory, projectRowOf } from './projectRows';
import type { PmTaskRow } from './projectTaskService';
import { pmTaskColumns, pmTaskRow } from './projectTaskService';
import { touchSession } from './agentSessionRows';
import { closeExecution, executionRow, openExecution } from './executionLogs';

const deprecation = (tool: string, instead: string): string => `${tool} is deprecated: use ${instead}`;

/**
 * The agent-instance calls the contract deprecates and still answers: `get_pending_tasks`
 * (replaced by get_my_task), `report_execution_start` (get_my_task records the start) and
 * `report_execution_complete` (replaced by report_completed). Each answer says so.
 */
export class DeprecatedAgentCalls {
  constructor(
    private readonly engine: LedgerEngine,
    private readonly workspace: string,
    private readonly now: () => Date,
    private readonly sessionTtlSeconds: number,
  ) {}

  /** Deprecated: the unfinished tasks of the session's project assigned to its agent. */
  async pendingTasks(token: string): Promise<{
    deprecated: string;
    tasks: {
      taskId: string;
      projectId: string;
      title: string;
      description: string | null;
      priority: string;
      workingDirectory: string;
      assignedAt: string;
    }[];
  }> {
    return this.engine.write(async (tx) => {
      const session = await touchSession(tx, token, this.now(), this.sessionTtlSeconds);
      const project = await projectRowOf(tx, session.project_id);
      const rows = await tx.all<PmTaskRow>(
        `SELECT ${pmTaskColumns} FROM tasks WHERE project_id = ? AND assignee = ? AND status IN ('open', 'in_progress') ORDER BY id`,
        [project.id, session.agent],
      );
      return {
        deprecated: deprecation('get_pending_tasks', 'get_my_task'),
        tasks: rows.map((r) => ({
          taskId: taskKey(Number(r.id)),
          projectId: projectKey(project.id),
          title: r.title,
          description: r.description ?? r.goal,
          priority: r.priority,
          workingDirectory: absoluteDirectory(this.workspace, project.working_directory),
          assignedAt: r.updated_at,
        })),
      };
    });
  }

  /** Deprecated: opens an execution log of a task of the session's project (get_my_task does it by itself). */
  async reportExecutionStart(
    token: string,
    taskRef: string | number,
  ): Promise<{ deprecated: string; execution_id: string; started_at: string }> {
    const ts = this.now().toISOString();
    return this.engine.write(async (tx) => {
      const session = await touchSession(tx, token, this.now(), this.sessionTtlSeconds);
      const task = await pmTaskRow(tx, taskRef);
      if (task.project_id === null || Number(task.project_id) !== session.project_id) {
        throw validationError(
          `${taskKey(task.id)} is not a task of this session's project ${projectKey(session.project_id)}`,
          { task_id: taskKey(task.id) },
        );
      }
      const id = await openExecution(tx, {
        taskId: task.id,
        workflowId: task.workflow_id,
        agent: session.agent,
        projectId: session.project_id,
        sessionId: session.id,
        ts,
      });
      return {
        deprecated: deprecation('report_execution_start', 'get_my_task, which records the start by itself'),
        execution_id: executionKey(id),
        started_at: ts,
      };
    });
  }

  /** Deprecated: closes an execution log of the session's agent with the CLI's exit code, duration and log file. */
  async reportExecutionComplete(
    token: string,
    executionRef: string | number,
    end: { exitCode: number; durationSeconds: number; logFilePath: string },
  ): Promise<{ deprecated: string; execution_id: string; completed_at: string; status: 'completed' | 'failed' }> {
    const now = this.now();
    parsePmId('execution', executionRef, 'execution_id');
    return this.engine.write(async (tx) => {
      const session = await touchSession(tx, token, now, this.sessionTtlSeconds);
      const run = await executionRow(tx, executionRef);
      if (run.agent !== session.agent)
        throw validationError(`${executionKey(run.id)} is not a run of agent ${session.agent}`, {
          execution_id: executionKey(run.id),
        });
      const status = end.exitCode === 0 ? 'completed' : 'failed';
      const completedAt = await closeExecution(
        tx,
        run.id,
        { status, exitCode: end.exitCode, durationMs: end.durationSeconds * 1000, logPath: end.logFilePath },
        now,
      );
      return {
        deprecated: deprecation('report_execution_complete', 'report_completed'),
        execution_id: executionKey(run.id),
        completed_at: completedAt,
        status,
      };
    });
  }
}
