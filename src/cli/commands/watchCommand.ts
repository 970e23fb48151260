import type { Command } from 'commander';
import type { Services } from '../../app/services';
import type { ActivityFilter, ActivityItem } from '../../core/board/activity';
import { parseActivityKinds } from '../../core/board/activity';
import { parseId } from '../../core/ids';
import { truncate } from '../../core/format';
import { validationError } from '../../core/errors';
import type { CommonOptions } from '../output';
import { reportError, style } from '../output';
import { toTerminal, visible } from '../terminalText';
import { resolveWorkspace, worktreesDirOption } from '../withServices';
import type { WorktreesOption } from '../withServices';

interface WatchOptions {
  task?: string;
  agent?: string;
  kind?: string[];
  history?: string;
}

/**
 * `agent-ledger watch`: one line per ledger event a person follows, as it happens, woken by writes
 * from any process or machine. Made for a terminal tab and for Claude Code's Monitor tool (each
 * line it prints wakes the agent). Ends on Ctrl-C, SIGTERM, or when its reader goes away (`| head`).
 */
export function registerWatchCommand(watch: Command): void {
  watch
    .option('--task <id>', 'only events of this task (task-3, 3)')
    .option('--agent <name>', 'only events of this agent')
    .option(
      '--kind <kinds...>',
      'only these kinds or families, comma- or space-separated: task, run, checkpoint, pipeline, handoff, or task.completed, run.ended…',
    )
    .option('--history <n>', 'first print the last <n> matching events (default 0: only what happens from now on)')
    .action(async (o: WatchOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<CommonOptions & WorktreesOption>();
      const json = opts.json === true;
      const stop = new AbortController();
      const onSignal = (): void => stop.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      // A reader that went away (`| head -n 2`): the next line fails with EPIPE, and the watch ends.
      const onClosed = (err: NodeJS.ErrnoException): void => {
        if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') stop.abort();
      };
      process.stdout.on('error', onClosed);
      let services: Services | undefined;
      try {
        const filter = filterOf(o);
        const history = o.history === undefined ? 0 : count(o.history);
        const workspace = resolveWorkspace(opts.workspace);
        const { createServices } = await import('../../app/services.js');
        services = await createServices({
          workspace,
          dbPath: opts.db,
          readonly: true,
          worktreesDir: worktreesDirOption(opts),
        });
        const feed = services.activity;
        const from = await feed.lastSeq();
        const print = (item: ActivityItem): void => {
          if (stop.signal.aborted) return;
          process.stdout.write(json ? `${JSON.stringify(item)}\n` : `${toTerminal(line(item), colorOn())}\n`);
        };
        for (const item of await feed.history(from, history, filter)) print(item);
        for await (const item of feed.follow(from, filter, stop.signal)) print(item);
      } catch (err) {
        if (!stop.signal.aborted) process.exitCode = reportError(err, json);
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        await services?.dispose().catch(() => undefined);
      }
    });
}

const colorOn = (): boolean => process.stdout.isTTY === true && !process.env.NO_COLOR;

function filterOf(o: WatchOptions): ActivityFilter {
  const kinds = o.kind ? parseActivityKinds(o.kind.flatMap((k) => k.split(','))) : undefined;
  const agent = o.agent?.trim();
  if (o.agent !== undefined && !agent) throw validationError('--agent needs a name');
  return {
    ...(o.task === undefined ? {} : { taskId: parseId('task', o.task) }),
    ...(agent ? { agent } : {}),
    ...(kinds?.length ? { kinds } : {}),
  };
}

function count(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0 || n > 10_000)
    throw validationError(`--history takes a whole number from 0 to 10000, not "${text}"`);
  return n;
}

const kindWidth = 'checkpoint.waiting'.length;

function paint(item: ActivityItem, text: string): string {
  if (item.kind === 'checkpoint.waiting' || item.kind === 'task.review') return style.yellow(text);
  if (item.kind === 'task.completed')
    return item.result === 'success' || item.result === null ? style.green(text) : style.red(text);
  if (item.kind === 'task.cancelled') return style.red(text);
  if (item.kind === 'run.ended') return style.cyan(text);
  return text;
}

/**
 * `09:41:02  task.completed      task-3  Add rate limiting — completed: success, 4 files changed`.
 * Every piece of ledger text goes through visible(): an agent's title cannot drive the terminal.
 */
export function line(item: ActivityItem): string {
  const at = new Date(item.at);
  const time = Number.isNaN(at.getTime())
    ? item.at
    : at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
  const subject = item.task ?? (item.pipeline ? item.pipeline.split('/').pop()! : '');
  const title = item.title ? truncate(item.title, 60) : '';
  const what = [subject && style.bold(visible(subject)), title && visible(title)].filter(Boolean).join('  ');
  return `${style.dim(time)}  ${paint(item, item.kind.padEnd(kindWidth))}  ${what}${what ? ' — ' : ''}${visible(item.text)}`;
}
