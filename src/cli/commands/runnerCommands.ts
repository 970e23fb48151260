import * as path from 'node:path';
import type { Command } from 'commander';
import type { RunnerEvent } from '../../core/runtime/runner/runner';
import type { Services } from '../../app/services';
import { validationError } from '../../core/errors';
import type { CommonOptions } from '../output';
import { printErrorLines, printLines, reportError, style } from '../output';
import { runnerLine } from './runnerFormat';
import { visible } from '../terminalText';
import { resolveWorkspace, worktreesDirOption } from '../withServices';
import { passEarlyStopOn, takeEarlyStop } from '../earlyStop';
import type { WorktreesOption } from '../withServices';

/** `agent-ledger runner`: launches the agents the ledger says should run, until stopped. */
export function registerRunnerCommands(runner: Command): void {
  runner
    .option('--interval <seconds>', 'seconds between polls (default 5)')
    .option('--max-parallel <n>', 'agents running at once (default 4)')
    .option('--once', 'poll once, wait for the agents it launched to end, and exit')
    .option(
      '--stop-with-stdin',
      'also stop (with its agents) when standard input closes: for a program that starts the runner and could die without stopping it, such as the editor',
    )
    .option(
      '--allow-overlap',
      'also launch a task whose write scope overlaps a running task’s (by default it waits until that task ends)',
    )
    .option(
      '--server-url <url>',
      "wire the agents to the team's HTTP ledger server (`mcp serve --http`) at this URL, each with a short-lived agent token, instead of a server of their own",
    )
    .action(
      async (
        o: {
          interval?: string;
          maxParallel?: string;
          once?: boolean;
          stopWithStdin?: boolean;
          allowOverlap?: boolean;
          serverUrl?: string;
        },
        cmd: Command,
      ) => {
        const opts = cmd.optsWithGlobals<CommonOptions & WorktreesOption>();
        // Listening from the first moment: a stop that comes while the ledger opens is a stop too,
        // and one that came while the CLI loaded (dist/cli.js held it: earlyStop.ts).
        const stop = o.once ? undefined : stopRequest(o.stopWithStdin === true);
        // Taken once these handlers listen: there is no moment without one.
        if (stop && takeEarlyStop()) stop.stop();
        // --once listens for nothing: a signal that came early has its default action.
        if (!stop) passEarlyStopOn();
        let services: Services | undefined;
        try {
          const workspace = resolveWorkspace(opts.workspace, opts);
          const [{ createServices }, { createRunner }] = await Promise.all([
            import('../../app/services.js'),
            import('../../app/runner/createRunner.js'),
          ]);
          services = await createServices({ workspace, dbPath: opts.db, worktreesDir: worktreesDirOption(opts) });
          const intervalSeconds = numberOption(o.interval, '--interval', 0.2, 3600) ?? 5;
          const setup = createRunner(services, {
            cliCommand: [process.execPath, path.resolve(process.argv[1] ?? 'agent-ledger')],
            dbPath: opts.db,
            worktreesDir: worktreesDirOption(opts),
            maxParallel: numberOption(o.maxParallel, '--max-parallel', 1, 64, true),
            allowOverlap: o.allowOverlap === true,
            serverUrl: o.serverUrl,
          });
          const print = opts.json === true ? printJson : printText;
          setup.runner.onDidChange(print);
          await setup.runner.recover();
          if (o.once) {
            const report = await setup.runner.poll();
            if (!report.healthy) throw new Error('the ledger did not answer the health check');
            await setup.runner.settled();
          } else {
            printErrorLines([
              style.dim(`runner: polling every ${intervalSeconds} s; logs in ${visible(setup.logDir)}; Ctrl-C to stop`),
            ]);
            const loop = stop?.requested ? undefined : setup.runner.start(intervalSeconds * 1000);
            await stop?.promise;
            loop?.dispose();
            printErrorLines([style.dim(`runner: stopping ${setup.runner.list().length} agent(s)…`)]);
          }
          await setup.dispose();
        } catch (err) {
          process.exitCode = reportError(err, opts.json === true);
        } finally {
          await services?.dispose().catch((err: unknown) => (process.exitCode = reportError(err, opts.json === true)));
        }
        if (stop) await exitNow();
      },
    );
}

/**
 * The runner's stop, from whichever comes first: SIGINT, SIGTERM, or (`--stop-with-stdin`) its
 * standard input closing. The handlers stay for the whole shutdown: a second signal (Ctrl-C
 * pressed again, a supervisor that closes the runner's stdin and signals its group at once, an
 * escalation) must not cut short the agents' stop and their execution logs.
 */
function stopRequest(withStdin: boolean): { promise: Promise<void>; requested: boolean; stop(): void } {
  const request = { requested: false, promise: Promise.resolve(), stop: (): void => undefined };
  request.promise = new Promise<void>((resolve) => {
    const stop = (): void => {
      request.requested = true;
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    request.stop = stop;
    if (withStdin) {
      // The parent holds the other end: it closes when the parent exits, however it dies.
      process.stdin.once('end', stop).once('close', stop).once('error', stop).resume();
      // Its output pipes went with it: writing there must not kill the runner before it has
      // stopped its agents and recorded their ends.
      for (const out of [process.stdout, process.stderr]) out.on('error', () => undefined);
    }
  });
  return request;
}

/**
 * Exits now that the runner has stopped, instead of letting the event loop drain. When Node
 * exits by draining, it first closes its signal handles, which gives SIGTERM back its default
 * action for the rest of the teardown (tens of milliseconds, more under load): a SIGTERM arriving
 * then kills a runner that had already stopped cleanly. That is what happened when a supervisor
 * closed the runner's stdin and signalled it at once (Stop Runner): the stdin's end stopped the
 * runner, and the signal, delayed by a loaded machine, landed in that window. `process.exit`
 * keeps the handlers installed until the process is gone. Output is flushed first.
 */
async function exitNow(): Promise<never> {
  await Promise.all(
    [process.stdout, process.stderr].map(
      (out) =>
        new Promise<void>((resolve) =>
          out.writableEnded || out.destroyed ? resolve() : out.write('', () => resolve()),
        ),
    ),
  );
  process.exit();
}

/** A number option within bounds, or a coded refusal naming it. */
function numberOption(
  text: string | undefined,
  flag: string,
  min: number,
  max: number,
  integer = false,
): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text.trim());
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || n < min || n > max || (integer && !Number.isInteger(n))) {
    throw validationError(
      `${flag} takes ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, not ${JSON.stringify(text)}`,
      { option: flag },
    );
  }
  return n;
}

function printJson(event: RunnerEvent): void {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

/** Through the terminal renderer: styled in a terminal, plain in a pipe or with NO_COLOR. */
function printText(event: RunnerEvent): void {
  printLines([runnerLine(event)]);
}
