import * as path from 'node:path';
import type { Command } from 'commander';
import type { Services } from '../../app/services';
import { validationError } from '../../core/errors';
import type { CommonOptions } from '../output';
import { printErrorLines, reportError, style } from '../output';
import { visible } from '../terminalText';
import { resolveWorkspace, worktreesDirOption } from '../withServices';
import type { WorktreesOption } from '../withServices';

/**
 * `agent-ledger ui`: the Board, task details with their exact diffs, pipeline checkpoints, the
 * plan graph, runs, agents and the Memory Bank in a browser, live — for people who never open
 * VS Code. Loopback only, with a token in the address it prints once.
 */
export function registerUiCommand(ui: Command): void {
  ui.option('--port <port>', 'listen on this port of 127.0.0.1 (default: a free one)')
    .option(
      '--open',
      'open the address in your browser (through a page only you can read: the token stays off command lines)',
    )
    .action(async (o: { port?: string; open?: boolean }, cmd: Command) => {
      const opts = cmd.optsWithGlobals<CommonOptions & WorktreesOption>();
      let services: Services | undefined;
      try {
        const port = o.port === undefined ? 0 : portOf(o.port);
        const workspace = resolveWorkspace(opts.workspace);
        const [{ createServices }, { startUiServer }, { personName }] = await Promise.all([
          import('../../app/services.js'),
          import('../../web/uiServer.js'),
          import('../../views/person.js'),
        ]);
        services = await createServices({
          workspace,
          dbPath: opts.db,
          watch: true,
          worktreesDir: worktreesDirOption(opts),
        });
        const person = personName('person');
        const server = await startUiServer({
          services,
          folder: { name: path.basename(workspace), root: workspace },
          person,
          port,
          log: (line) => printErrorLines([style.dim(`ui: ${visible(line)}`)]),
        });
        // The address with its token: printed once, on stdout, and nowhere else.
        process.stdout.write(
          opts.json === true
            ? `${JSON.stringify({ url: server.url, port: server.port, person })}\n`
            : `Agent Ledger for ${path.basename(workspace)}: ${server.url}\n`,
        );
        printErrorLines([
          style.dim(
            `ui: on 127.0.0.1:${server.port} only; your actions are recorded as ${visible(person)}; Ctrl-C to stop`,
          ),
        ]);
        if (o.open) {
          const { openInBrowser } = await import('../../processes/openInBrowser.js');
          const opened = openInBrowser(server.url);
          if (!opened.opened)
            printErrorLines([`ui: could not open a browser (${visible(opened.reason)}): open the address above`]);
        }
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        await server.close();
      } catch (err) {
        process.exitCode = reportError(err, opts.json === true);
      } finally {
        await services?.dispose().catch(() => undefined);
      }
    });
}

function portOf(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw validationError(`--port takes a port number (0–65535), not "${text}"`);
  return n;
}
