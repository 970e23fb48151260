import type { Command } from 'commander';
import { agentClients } from '../../core/agents/agentModel';
import type { CleanupResult, WorkerCommandResult } from '../../core/workers/workerContracts';
import { formatBytes } from '../../core/format';
import type { CommonOptions } from '../output';
import { printErrorLines, printJson, printLines, style } from '../output';
import { validationError } from '../../core/errors';
import { parseSize } from '../../core/workers/workspaceSettings';
import { withServices } from '../withServices';
import { visible } from '../terminalText';
import { idArg, idempotencyKeyHelp, numberArg, runToolCommand } from '../toolCommand';

/** `agent-ledger worker …`: worker_command and worktree_cleanup. */
export function registerWorkerCommands(worker: Command): void {
  worker
    .command('command')
    .description(
      'Prepare the task’s worktree, start a session and print the launch command (worker_command); run it with: eval "$(agent-ledger worker command 5)"',
    )
    .argument('<taskId>', 'task id (5, task-5 or #5)')
    .option('--agent <name>', "agent (default: the task's AI assignee, else coder)")
    .option('--client <client>', `override the agent's client (${agentClients.join(', ')})`)
    .option('--auto', 'add the client’s auto-approval flag')
    .option('--allow-concurrent', 'start even though this agent already has a running session on the task')
    .option('--idempotency-key <key>', idempotencyKeyHelp)
    .action(
      (
        taskId: string,
        o: { agent?: string; client?: string; auto?: boolean; allowConcurrent?: boolean; idempotencyKey?: string },
        cmd: Command,
      ) =>
        runToolCommand(cmd, {
          tool: 'worker_command',
          args: {
            taskId: idArg(taskId),
            agent: o.agent,
            client: o.client,
            auto: o.auto,
            allowConcurrent: o.allowConcurrent,
            idempotency_key: o.idempotencyKey,
          },
          format: (r: WorkerCommandResult) => {
            // stdout carries only the command, so it can be eval'ed; the rest is for the person.
            printErrorLines([
              style.dim(
                `session ${r.sessionId} · ${visible(r.agent)} (${r.client}) · ${visible(r.worktree)} on ${visible(r.task.branch)}${r.reused ? ' (reused)' : ''}`,
              ),
            ]);
            // Piped (eval "$(…)"), the command goes out exactly; on a terminal its control characters are shown instead.
            if (!process.stdout.isTTY) {
              process.stdout.write(`${r.command}\n`);
              return [];
            }
            return [r.command];
          },
        }),
    );

  worker
    .command('cleanup')
    .description(
      'Remove a task’s worktree (--task), or every worktree merged into HEAD or unused for --older-than-days (worktree_cleanup)',
    )
    .option('--task <id>', 'only this task’s worktree')
    .option('--older-than-days <n>', 'retention in days (default 14)')
    .option('--force', 'also remove worktrees with uncommitted changes or a running session')
    .option('--dry-run', 'only report what would be removed')
    .option(
      '--budget <size>',
      'instead: while the worktrees use more than this (5GB, 500MB), remove those of landed or abandoned tasks, least recently used first (what the runner does on a schedule with worktrees.budget of .agent-ledger/workspace.yaml)',
    )
    .action(
      (
        o: { task?: string; olderThanDays?: string; force?: boolean; dryRun?: boolean; budget?: string },
        cmd: Command,
      ) => {
        if (o.budget !== undefined) {
          const budget = o.budget;
          if (o.task !== undefined || o.olderThanDays !== undefined || o.force || o.dryRun)
            throw validationError(
              '--budget removes by disk use alone: it takes no --task, --older-than-days, --force or --dry-run',
            );
          return withServices(cmd, { readonly: false }, async (services) => {
            const bytes = parseSize(budget, '--budget', (message) => {
              throw validationError(message, { option: '--budget' });
            });
            const result = await services.worktreeCleanup.withinBudget(bytes);
            if (cmd.optsWithGlobals<CommonOptions>().json === true) printJson(result);
            else
              printLines([
                ...formatCleanup(result),
                style.dim(`worktrees now use ${formatBytes(result.usedBytes)} of ${formatBytes(bytes)}`),
              ]);
          });
        }
        return runToolCommand(cmd, {
          tool: 'worktree_cleanup',
          args: { taskId: idArg(o.task), olderThanDays: numberArg(o.olderThanDays), force: o.force, dryRun: o.dryRun },
          format: formatCleanup,
        });
      },
    );
}

function formatCleanup(r: CleanupResult): string[] {
  const verb = r.dryRun ? 'would remove' : 'removed';
  const lines = r.removed.map(
    (w) =>
      `${style.green(verb)} ${visible(w.worktree)} ${style.dim(`(${visible(w.reason)}, ${formatBytes(w.freedBytes)}${w.branchDeleted ? `, branch ${visible(w.branch)} deleted` : ''})`)}`,
  );
  for (const s of r.skipped)
    lines.push(`${style.yellow('kept')} ${visible(s.worktree)} ${style.dim(`(${visible(s.reason)})`)}`);
  if (lines.length === 0) lines.push('No worktrees to clean up.');
  lines.push(style.bold(`${r.dryRun ? 'Would free' : 'Freed'} ${formatBytes(r.freedBytes)}`));
  return lines;
}
