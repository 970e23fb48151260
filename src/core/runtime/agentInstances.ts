/**
 * Agent instances as a person watches them (the editor's Agents & Sessions view): the (agent,
 * project) pairs a runner is running now, the handoffs nobody accepted yet, an execution's log
 * (read, and followed while it grows), and stopping one instance — through the process
 * supervisor's record of it (a signal to its process group after checking it is still the same
 * process), never a shell, and whichever runner of this folder started it (the editor's, or
 * `agent-ledger runner` in a terminal). The runner that watches it records how it ended.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import type { Disposable } from '../emitter';
import { LedgerError } from '../errors';
import { isConfined } from '../files/confinedPath';
import { taskKey, executionKey, handoffKey, projectKey } from '../ids';
import type { LedgerEngine } from '../ports/store';
import type { LogEntry, LogReaderPort, LogSlice, Liveness, ProcessSupervisorPort } from '../ports/processes';
import { executionRow } from './pm/executionLogs';
import { pendingHandoffRows } from './pm/pendingHandoffs';
import { holdIn, personOf } from '../tasks/taskHolds';

/** The label the runner puts on the processes it starts (runner.ts). */
const runnerRole = 'agent-ledger-runner';

/** An (agent, project) instance running now. */
export interface RunningInstance {
  agentId: string;
  projectId: string;
  projectName: string;
  /** The task it works on, when known. */
  taskId: string | null;
  taskTitle: string | null;
  /** Its run (execution log), e.g. `exec-7`. */
  executionId: string | null;
  /** The agent client's process id (on the runner's machine); null until the process started. */
  pid: number | null;
  client: string | null;
  /** When the run started. */
  since: string | null;
  /** The last time its runner said it still watches it. */
  heartbeatAt: string | null;
  /** The machine of the runner that started it. */
  host: string | null;
  /** Whether that runner is on this machine and works in this folder: only then can it be stopped from here. */
  stoppableHere: boolean;
}

/** A handoff nobody accepted yet. */
export interface PendingHandoff {
  handoffId: string;
  taskId: string;
  taskTitle: string;
  fromAgent: string;
  /** null: any agent may take it. */
  toAgent: string | null;
  summary: string;
  createdAt: string;
}

/** Where an execution's log is and whether the run still goes. */
export interface ExecutionLogFile {
  executionId: string;
  agentId: string;
  taskId: string | null;
  status: string;
  /** Absolute path of the JSON Lines log, or null when the run left none (it never started, or another machine has it). */
  logFile: string | null;
  /** Why there is no log file to read here, when there is none. */
  missing?: string;
}

interface InstanceRow {
  agent: string;
  project_id: number;
  project_name: string;
  task_id: number | null;
  task_title: string | null;
  execution_id: number | null;
  pid: number | null;
  client: string | null;
  started_at: string | null;
  heartbeat_at: string | null;
  runner_id: string | null;
}

export interface AgentInstanceDeps {
  engine: LedgerEngine;
  supervisor: Pick<ProcessSupervisorPort, 'readRecord' | 'stopRecorded' | 'checkRecord'>;
  logs: LogReaderPort;
  workspace: string;
  /** This folder's run logs: `.agent-ledger/runs` (the runner's log folder, createRunner.ts). */
  runsDir: string;
  /** This machine's name (default os.hostname()). */
  host?: string;
}

/** `host:logDir`, as the runner names itself (createRunner.ts), split at the first colon. */
function runnerParts(runnerId: string | null): { host: string; logDir: string } | null {
  if (!runnerId) return null;
  const i = runnerId.indexOf(':');
  return i <= 0 ? null : { host: runnerId.slice(0, i), logDir: runnerId.slice(i + 1) };
}

export class AgentInstanceService {
  private readonly host: string;

  constructor(private readonly d: AgentInstanceDeps) {
    this.host = d.host ?? os.hostname();
  }

  /** The folder's runner id on this machine (what `agent-ledger runner` records as runner_id). */
  private isOurs(runnerId: string | null): boolean {
    const parts = runnerParts(runnerId);
    return parts !== null && parts.host === this.host && path.resolve(parts.logDir) === path.resolve(this.d.runsDir);
  }

  /** Every instance running now, oldest first. */
  async running(): Promise<RunningInstance[]> {
    const rows = await this.d.engine.read((db) =>
      db.all<InstanceRow>(
        `SELECT i.agent, i.project_id, p.name AS project_name, i.task_id, t.title AS task_title, i.execution_id, i.pid, e.client,
                COALESCE(e.started_at, i.started_at) AS started_at, i.heartbeat_at, COALESCE(e.runner_id, i.runner_id) AS runner_id
           FROM agent_instances i
           JOIN projects p ON p.id = i.project_id
           LEFT JOIN tasks t ON t.id = i.task_id
           LEFT JOIN execution_logs e ON e.id = i.execution_id
          WHERE i.status = 'running'
          ORDER BY i.started_at NULLS LAST, i.agent, i.project_id`,
      ),
    );
    return rows.map((r) => ({
      agentId: r.agent,
      projectId: projectKey(Number(r.project_id)),
      projectName: r.project_name,
      taskId: r.task_id === null ? null : taskKey(Number(r.task_id)),
      taskTitle: r.task_title,
      executionId: r.execution_id === null ? null : executionKey(Number(r.execution_id)),
      pid: r.pid === null ? null : Number(r.pid),
      client: r.client,
      since: r.started_at,
      heartbeatAt: r.heartbeat_at,
      host: runnerParts(r.runner_id)?.host ?? null,
      stoppableHere: this.isOurs(r.runner_id),
    }));
  }

  /** Handoffs nobody accepted yet, oldest first, with their task's title. */
  async pendingHandoffs(): Promise<PendingHandoff[]> {
    const rows = await this.d.engine.read((db) => pendingHandoffRows(db));
    return rows.map((r) => ({
      handoffId: handoffKey(r.id),
      taskId: taskKey(r.task_id),
      taskTitle: r.task_title ?? '',
      fromAgent: r.from_agent,
      toAgent: r.to_agent,
      summary: r.summary,
      createdAt: r.created_at,
    }));
  }

  /**
   * Stops the running instance of an execution: SIGTERM to its process group, SIGKILL after
   * `graceMs`, after checking the recorded process is still the one that started. Refused (coded)
   * when the run is over, was started by a runner on another machine or of another folder, or
   * left no process record. Resolves with what was found before stopping.
   */
  async stop(
    executionRef: string | number,
    options: { graceMs?: number; by?: string } = {},
  ): Promise<{ executionId: string; liveness: Liveness; heldTask: string | null; stoppedBy: string }> {
    const row = await this.d.engine.read(async (db) => {
      const e = await executionRow(db, executionRef);
      const extra = await db.get<{ runner_id: string | null; process_id: string | null }>(
        'SELECT runner_id, process_id FROM execution_logs WHERE id = ?',
        [e.id],
      );
      return { ...e, runner_id: extra?.runner_id ?? null, process_id: extra?.process_id ?? null };
    });
    const executionId = executionKey(row.id);
    if (row.status !== 'running')
      throw new LedgerError(
        'InvalidStatus',
        `${executionId} is not running (it is ${row.status}): there is nothing to stop`,
        { executionId, status: row.status },
      );
    const runner = runnerParts(row.runner_id);
    if (!runner || row.process_id === null) {
      throw new LedgerError(
        'InvalidStatus',
        `${executionId} was not started by a runner (no process is recorded for it): the agent ends it with report_completed`,
        { executionId },
      );
    }
    if (runner.host !== this.host)
      throw new LedgerError('InvalidStatus', `${executionId} runs on ${runner.host}: stop it there`, {
        executionId,
        host: runner.host,
      });
    if (!this.isOurs(row.runner_id))
      throw new LedgerError(
        'InvalidStatus',
        `${executionId} was started by the runner of another folder (${runner.logDir}): stop it there`,
        { executionId },
      );
    const record = await this.d.supervisor.readRecord(this.d.runsDir, row.process_id);
    if (!record || record.labels.role !== runnerRole || record.labels.executionId !== executionId) {
      throw new LedgerError(
        'NotFound',
        `${executionId} left no process record in ${this.d.runsDir}: its runner never started it, or the record was removed`,
        { executionId },
      );
    }
    // Recorded before the signal: the runner that sees the exit records a stop, not a failure, and
    // the task is held, so no runner launches it again until a person resumes it.
    const by = personOf(options.by);
    const now = new Date().toISOString();
    const taskId = row.task_id === null ? null : Number(row.task_id);
    await this.d.engine.write(async (tx) => {
      await tx.run('UPDATE execution_logs SET stopped_by = ? WHERE id = ?', [by, row.id]);
      const task =
        taskId === null
          ? undefined
          : await tx.get<{ status: string }>('SELECT status FROM tasks WHERE id = ?', [taskId]);
      // A task already finished (its agent reported, the process lingers) has nothing to hold.
      if (taskId !== null && task && !['done', 'failed', 'cancelled'].includes(task.status))
        await holdIn(tx, taskId, by, now);
    });
    const liveness = await this.d.supervisor.stopRecorded(record, { graceMs: options.graceMs });
    return { executionId, liveness, heldTask: taskId === null ? null : taskKey(taskId), stoppedBy: by };
  }

  /** Where an execution's log is (confined to this folder's run logs). */
  async logFile(executionRef: string | number): Promise<ExecutionLogFile> {
    const row = await this.d.engine.read((db) => executionRow(db, executionRef));
    const base = {
      executionId: executionKey(row.id),
      agentId: row.agent,
      taskId: row.task_id === null ? null : taskKey(Number(row.task_id)),
      status: row.status,
    };
    if (!row.log_path)
      return {
        ...base,
        logFile: null,
        missing:
          row.status === 'running'
            ? 'the run has not started its process yet'
            : 'this run left no log file (it was not started by a runner)',
      };
    if (!isConfined(this.d.workspace, row.log_path) || !isConfined(this.d.runsDir, row.log_path)) {
      return {
        ...base,
        logFile: null,
        missing: `its log is not in this folder's run logs (${row.log_path}): it was written by a runner of another folder or machine`,
      };
    }
    return { ...base, logFile: row.log_path };
  }

  /**
   * Where an execution's process stands: `running` (or its run still open), `exited` (the
   * supervisor recorded its exit: its log is complete), or `gone` (no process to wait for, but no
   * exit recorded: its supervisor may be writing it this moment, or died with it). An agent's
   * report closes the run a moment before its process exits and writes its last lines.
   */
  async processState(executionRef: string | number): Promise<'running' | 'exited' | 'gone'> {
    const row = await this.d.engine.read((db) => executionRow(db, executionRef));
    const record = await this.d.supervisor.readRecord(this.d.runsDir, executionKey(row.id));
    if (record?.exit) return 'exited';
    if (row.status === 'running') return 'running';
    if (!record) return 'gone';
    return (await this.d.supervisor.checkRecord(record)) === 'running' ? 'running' : 'gone';
  }

  /** Complete entries of an execution's log from `offset`. */
  async readLog(executionRef: string | number, offset = 0): Promise<LogSlice & ExecutionLogFile> {
    const file = await this.logFile(executionRef);
    if (!file.logFile) return { ...file, entries: [], nextOffset: offset, size: 0 };
    return { ...file, ...(await this.d.logs.read(file.logFile, { offset, maxBytes: 4 * 1024 * 1024 })) };
  }

  /** Calls `listener` with new entries of a log file as it grows, from `offset` on. */
  followLog(logFile: string, listener: (entries: LogEntry[]) => void, offset: number): Disposable {
    if (!isConfined(this.d.runsDir, logFile))
      throw new LedgerError('ValidationError', `${logFile} is not a run log of this folder`, { logFile });
    return this.d.logs.follow(logFile, listener, { offset, intervalMs: 250 });
  }
}
