import type { Command } from 'commander';
import { dodResults, sessionErrorTypes, sessionStatuses } from '../../core/sessions/sessionValues';
import type { SessionStartResult } from '../../core/sessions/sessionContracts';
import type { SessionView } from '../../core/sessions/sessionRepo';
import { taskKey } from '../../core/ids';
import { age, duration, style, table } from '../output';
import { visible } from '../terminalText';
import { collect, idArg, numberArg, runToolCommand } from '../toolCommand';

/** `agent-ledger session …`: session_start, session_end and session_list. */
export function registerSessionCommands(session: Command): void {
  session
    .command('start')
    .description('Start a session for a worker run without worker_command (session_start)')
    .argument('<taskId>', 'task id (5, task-5 or #5)')
    .requiredOption('--agent <name>', 'agent name')
    .option('--group <id>', 'session group id')
    .option('--idempotency-key <key>', 'a retry with the same key returns the same session')
    .option('--allow-concurrent', 'start even though this agent already has a running session on the task')
    .action(
      (
        taskId: string,
        o: { agent: string; group?: string; idempotencyKey?: string; allowConcurrent?: boolean },
        cmd: Command,
      ) =>
        runToolCommand(cmd, {
          tool: 'session_start',
          args: {
            taskId: idArg(taskId),
            agent: o.agent,
            sessionGroupId: o.group,
            idempotencyKey: o.idempotencyKey,
            allowConcurrent: o.allowConcurrent,
          },
          format: (r: SessionStartResult) => [
            r.replayed
              ? `session ${style.bold(String(r.sessionId))} was already started with this key (${r.startedAt})`
              : `${style.green('started')} session ${style.bold(String(r.sessionId))} on ${taskKey(r.taskId)} for ${visible(r.agent)}`,
          ],
        }),
    );

  session
    .command('end')
    .description('End a session (session_end)')
    .argument('<sessionId>', 'session id')
    .requiredOption('--exit-code <code>', 'worker process exit code')
    .option('--signal <signal>', 'termination signal (SIGTERM, SIGKILL, …)')
    .option('--dod-result <result>', `Definition of Done result (${dodResults.join(', ')})`)
    .option('--artifact <path>', 'a modified file, worktree relative (repeatable)', collect)
    .option('--error-type <type>', `kind of failure (${sessionErrorTypes.join(', ')})`)
    .option('--error-message <text>', 'what went wrong')
    .action(
      (
        sessionId: string,
        o: {
          exitCode: string;
          signal?: string;
          dodResult?: string;
          artifact?: string[];
          errorType?: string;
          errorMessage?: string;
        },
        cmd: Command,
      ) =>
        runToolCommand(cmd, {
          tool: 'session_end',
          args: {
            sessionId: idArg(sessionId),
            exitCode: numberArg(o.exitCode),
            signal: o.signal,
            dodResult: o.dodResult,
            artifacts: o.artifact,
            error:
              o.errorType !== undefined || o.errorMessage !== undefined
                ? { type: o.errorType, message: o.errorMessage }
                : undefined,
          },
          format: (s: SessionView & { taskStatus?: string }) => [
            `${s.status === 'failed' ? style.red('failed') : style.green('ended')} session ${style.bold(String(s.id))} (exit ${s.exitCode}${s.dodResult ? `, ${s.dodResult}` : ''}) after ${duration(s.durationSeconds)}${s.taskStatus ? ` — ${taskKey(s.taskId)} is now ${s.taskStatus}` : ''}`,
          ],
        }),
    );

  session
    .command('list')
    .description('List sessions, newest first (session_list)')
    .option('--task <id>', 'only sessions of this task')
    .option('--status <status>', sessionStatuses.join(', '))
    .option('--agent <name>', 'only sessions of this agent')
    .option('--limit <n>', 'how many to show (default 50)')
    .option('--offset <n>', 'how many to skip')
    .action((o: { task?: string; status?: string; agent?: string; limit?: string; offset?: string }, cmd: Command) =>
      runToolCommand(cmd, {
        tool: 'session_list',
        args: {
          taskId: idArg(o.task),
          status: o.status,
          agent: o.agent,
          limit: numberArg(o.limit),
          offset: numberArg(o.offset),
        },
        format: ({
          sessions,
          total,
          nextOffset,
        }: {
          sessions: SessionView[];
          total: number;
          nextOffset: number | null;
        }) => formatSessions(sessions, total, nextOffset),
      }),
    );
}

/** ` (ended by ann)` when a person ended it (its process gone); nothing when its worker or the runner did. */
function endedBy(s: SessionView): string {
  return s.endedBy ? ` (ended by ${visible(s.endedBy)})` : '';
}

function formatSessions(sessions: SessionView[], total: number, nextOffset: number | null): string[] {
  if (sessions.length === 0) return ['No sessions match.'];
  const rows = [
    [
      style.dim('ID'),
      style.dim('STATUS'),
      style.dim('TASK'),
      style.dim('AGENT'),
      style.dim('BRANCH'),
      style.dim('STARTED'),
      style.dim('TOOK'),
    ],
  ];
  for (const s of sessions) {
    const status =
      s.status === 'running'
        ? s.liveness === 'stale'
          ? style.yellow('stale')
          : style.cyan(s.liveness === 'elsewhere' ? 'running (other machine)' : s.status)
        : `${s.status === 'failed' ? style.red(s.status) : s.status}${endedBy(s)}`;
    rows.push([
      style.bold(String(s.id)),
      status,
      taskKey(s.taskId),
      visible(s.agent),
      visible(s.branch ?? '-'),
      `${age(s.startedAt)} ago`,
      duration(s.durationSeconds),
    ]);
  }
  const lines = table(rows);
  const stale = sessions.filter((s) => s.liveness === 'stale');
  if (stale.length)
    lines.push(
      style.dim(
        `stale: the process of ${stale.length === 1 ? 'this session' : 'these sessions'} is gone; end with agent-ledger session end ${stale[0].id} --exit-code <code>`,
      ),
    );
  if (nextOffset !== null) lines.push(style.dim(`… ${total - nextOffset} more (--offset ${nextOffset})`));
  return lines;
}
