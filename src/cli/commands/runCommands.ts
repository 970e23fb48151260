import type { Command } from 'commander';
import type { ExecutionLog, ExecutionLogDetail } from '../../core/runtime/pm/runtimeContracts';
import type { LogEntry } from '../../core/ports/processes';
import type { Services } from '../../app/services';
import { LedgerError } from '../../core/errors';
import { formatTokens, formatUsd } from '../../core/format';
import type { CommonOptions } from '../output';
import { age, duration, printLines, style, table } from '../output';
import { visible, visibleBlock } from '../terminalText';
import { idArg, numberArg, runToolCommand } from '../toolCommand';
import { withServices } from '../withServices';

/**
 * `agent-ledger run …`: the runs of agents (execution logs) as a person follows them — what ran,
 * for which task, how it ended, what it cost (list_execution_logs, get_execution_log), and its
 * output as it is written (the run's log file, read through the services).
 */
export function registerRunCommands(run: Command): void {
  run
    .command('list')
    .description(
      'Runs of agents, newest first: status, agent, task, client, duration, tokens, cost (list_execution_logs)',
    )
    .option('--task <id>', 'only the runs of this task (5, task-5 or #5)')
    .option('--agent <name>', 'only the runs of this agent')
    .option('--limit <n>', 'how many (default 20)')
    .action((o: { task?: string; agent?: string; limit?: string }, cmd: Command) =>
      runToolCommand(cmd, {
        tool: 'list_execution_logs',
        args: { task_id: idArg(o.task), agent_id: o.agent, limit: numberArg(o.limit) },
        format: ({ logs }: { logs: ExecutionLog[] }) => formatRuns(logs),
      }),
    );

  run
    .command('show')
    .alias('get')
    .description(
      'One run: its task, client, folder, how it ended and why, tokens, cost and log file (get_execution_log)',
    )
    .argument('<id>', 'run id (exec-3 or 3)')
    .action((id: string, _o: unknown, cmd: Command) =>
      runToolCommand(cmd, {
        tool: 'get_execution_log',
        args: { execution_id: idArg(id) },
        format: ({ log }: { log: ExecutionLogDetail }) => formatRun(log),
      }),
    );

  run
    .command('log')
    .description(
      'A run’s output (both streams and the runner’s notes); --follow prints it as it is written until the run ends',
    )
    .argument('<id>', 'run id (exec-3 or 3)')
    .option('--follow', 'keep printing what the run writes until it ends')
    .action((id: string, o: { follow?: boolean }, cmd: Command) => {
      const json = cmd.optsWithGlobals<CommonOptions>().json === true;
      return withServices(cmd, { readonly: true }, (services) => printRunLog(services, id, o.follow === true, json));
    });
}

function formatRuns(logs: ExecutionLog[]): string[] {
  if (logs.length === 0)
    return [
      style.dim('no runs yet: queue a task (agent-ledger task create "…" --agent coder), then agent-ledger runner'),
    ];
  const rows = [
    ['RUN', 'STATUS', 'AGENT', 'TASK', 'PROJECT', 'CLIENT', 'STARTED', 'TIME', 'TOKENS', 'COST'].map((h) =>
      style.dim(h),
    ),
  ];
  for (const r of logs)
    rows.push([
      style.bold(r.executionId),
      statusText(r),
      visible(r.agentId),
      r.taskId ?? '-',
      r.projectId ?? '-',
      visible(r.client ?? '-'),
      `${age(r.startedAt)} ago`,
      duration(r.durationSeconds === null ? null : Math.round(r.durationSeconds)),
      r.inputTokens === null && r.outputTokens === null ? '-' : `${tokens(r.inputTokens)}/${tokens(r.outputTokens)}`,
      r.costUsd === null ? '-' : formatUsd(r.costUsd),
    ]);
  return table(rows);
}

/** `1.2k`, `300`: a token count in a table cell. */
function tokens(n: number | null): string {
  return formatTokens(n ?? 0).replace(/ tokens$/, '');
}

function statusText(r: ExecutionLog): string {
  const text = `${r.status}${r.result && r.result !== 'success' ? ` (${r.result})` : ''}`;
  if (r.status === 'completed') return style.green(text);
  if (r.status === 'running') return style.cyan(text);
  return style.red(text);
}

function formatRun(r: ExecutionLogDetail): string[] {
  const how = r.signal ? `killed by ${r.signal}` : r.exitCode !== null ? `exit ${r.exitCode}` : null;
  const lines = [
    `${style.bold(r.executionId)}  ${statusText(r)}  ${visible(r.agentId)} · ${r.taskId ?? 'no task'} · ${r.projectId ?? 'no project'}${r.client ? ` · ${visible(r.client)}` : ''}`,
    `  started ${r.startedAt}${r.completedAt ? ` · ended ${r.completedAt}` : ''}${r.durationSeconds !== null ? ` · ${duration(Math.round(r.durationSeconds))}` : ''}${how ? ` · ${how}` : ''}`,
  ];
  if (r.inputTokens !== null || r.outputTokens !== null || r.costUsd !== null)
    lines.push(
      `  ${formatTokens(r.inputTokens ?? 0)} in, ${formatTokens(r.outputTokens ?? 0)} out${r.costUsd !== null ? ` · ${formatUsd(r.costUsd)}` : ' · no cost reported'}`,
    );
  if (r.workingDirectory) lines.push(`  folder: ${visible(r.workingDirectory)}`);
  lines.push(
    r.logFilePath
      ? `  log: ${visible(r.logFilePath)} ${style.dim(`(agent-ledger run log ${r.executionId})`)}`
      : style.dim('  no log file (the runner did not start this run)'),
  );
  if (r.summary) lines.push(`  summary: ${indented(r.summary)}`);
  if (r.error) lines.push(`  ${style.red('why:')} ${indented(r.error)}`);
  return lines;
}

function indented(text: string): string {
  return visibleBlock(text.trimEnd()).split('\n').join('\n    ');
}

/**
 * Prints a run's log; with `follow`, keeps reading it (every 250 ms) until the run has ended and its
 * log is read to the end. A reader that goes away (`| head`) ends it at once.
 */
async function printRunLog(services: Services, ref: string, follow: boolean, json: boolean): Promise<void> {
  const file = await services.instances.logFile(idArg(ref) ?? ref);
  if (!file.logFile)
    throw new LedgerError('NotFound', `${file.executionId} has no log to read here: ${file.missing ?? 'none'}`, {
      execution_id: file.executionId,
    });
  let closed = false;
  const onClose = (): void => {
    closed = true;
  };
  process.stdout.once('close', onClose).once('error', onClose);
  let offset = 0;
  let exited = false;
  let goneSince: number | undefined;
  try {
    for (;;) {
      // Asked before reading: a process whose exit was recorded by then has written its last line.
      // One gone without a recorded exit gets two more seconds (its supervisor may be writing it).
      const state = follow && !exited ? await services.instances.processState(file.executionId) : 'exited';
      goneSince = state === 'gone' ? (goneSince ?? Date.now()) : undefined;
      const ended = state === 'exited' || (goneSince !== undefined && Date.now() - goneSince > 2000);
      for (;;) {
        const slice = await services.instances.readLog(file.executionId, offset);
        if (slice.entries.length > 0) printEntries(slice.entries, json);
        // The supervisor's note of the exit is the log's last line.
        exited ||= slice.entries.some((e) => e.stream === 'meta' && e.data !== undefined && 'exitCode' in e.data);
        const done = slice.nextOffset === offset || slice.nextOffset >= slice.size;
        offset = slice.nextOffset;
        if (done || closed) break;
      }
      if (ended || exited || closed) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    process.stdout.off('close', onClose).off('error', onClose);
  }
}

function printEntries(entries: LogEntry[], json: boolean): void {
  if (json) {
    process.stdout.write(entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
    return;
  }
  printLines(
    entries.map((e) =>
      e.stream === 'stdout'
        ? visible(e.message)
        : e.stream === 'stderr'
          ? style.red(visible(e.message))
          : style.dim(`· ${visible(e.message)}`),
    ),
  );
}
