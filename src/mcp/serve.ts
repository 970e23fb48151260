import * as path from 'node:path';
import { quote } from 'shell-quote';
import { serveStdio as serveSdkStdio } from '@modelcontextprotocol/server/stdio';
import { createServer } from './server';
import { ServerLogin } from './serverLogin';
import { serverLimits } from './limits';
import { GuardedStdioTransport } from './stdio/guardedStdioTransport';
import { checkpointGates } from './gates/checkpointGates';
import { log, ServerProcess } from './serverProcess';
import type { ServeOptions } from './serverProcess';

export type { ServeOptions } from './serverProcess';

/** How long after the client's first message the ledger opens when it has not listed the tools by then. */
const WARM_UP_AFTER_HELLO_MS = 100;

/**
 * How long after answering tools/list the ledger starts opening, unless a call opens it first. An
 * SDK client compiles a validator for every listed output schema right then, on the CPU the
 * opening would take (docs/performance.md, "Start-up"); a call that comes at once still opens the
 * ledger at once.
 */
const WARM_UP_AFTER_LIST_MS = 200;

/**
 * Runs one MCP server process over stdio until the client closes stdin. stdout carries only
 * the protocol (STYLE.md habit 7): anything else a library prints goes to stderr. Nothing a
 * client sends ends the process: bad frames are refused by the transport, and an exception
 * that escapes a handler is logged, not fatal. Both protocol revisions: the client's first
 * message picks one for the connection (`server/discover` with 2026-07-28, or the 2025-11-25
 * `initialize`), and the same tools, resources and prompts serve either.
 */
export async function serveStdio(options: ServeOptions): Promise<void> {
  // The launch ticket is taken first, before this process starts anything that could inherit it.
  const login = ServerLogin.fromEnvironment(path.resolve(options.workspace), process.env, log);
  const proc = await ServerProcess.start(options);
  let warmUpTimer: NodeJS.Timeout | undefined;
  let listed = false;
  const warmUpIn = (ms: number): void => {
    clearTimeout(warmUpTimer);
    warmUpTimer = setTimeout(() => proc.warmUp(), ms).unref();
  };
  proc.beforeShutdown(() => clearTimeout(warmUpTimer));
  const loginOf = (): ServerLogin => login;
  const ledger = await createServer(proc.services, {
    ...proc.serverOptions(),
    loginOf,
    afterToolsListed: () => {
      if (!listed) warmUpIn(WARM_UP_AFTER_LIST_MS);
      listed = true;
    },
    transport: 'stdio',
    gates: checkpointGates(proc.services, loginOf, options.verbose ? log : undefined),
  });
  const transport = new GuardedStdioTransport(
    { maxMessageBytes: serverLimits.maxMessageBytes, maxJsonDepth: serverLimits.maxJsonDepth },
    log,
  );
  if (options.verbose) {
    transport.observe = (message) => {
      const m = message as { method?: string; id?: unknown; params?: { name?: string } };
      log(
        `← ${m.method ? JSON.stringify(m.method) : 'response'}${m.params?.name ? ` ${JSON.stringify(m.params.name)}` : ''}${m.id !== undefined ? ` #${JSON.stringify(m.id)}` : ''}`,
      );
    };
  }
  process.stdin.on('end', () => void proc.shutdown().finally(() => process.exit(0)));
  serveSdkStdio(
    ({ era }) => {
      // A client that never lists the tools still finds the ledger open soon after it said hello.
      if (!listed) warmUpIn(WARM_UP_AFTER_HELLO_MS);
      return ledger.instance({ era, lifetime: 'connection' });
    },
    { transport, onerror: (err) => log(`protocol error: ${err.message}`) },
  );
  log(`MCP server ready on ${proc.workspace} (families: ${proc.describeFamilies()})`);
  if (process.stdin.isTTY) log(terminalHint(proc.workspace));
}

/** What a person who started the server by hand in a terminal reads: this is not interactive. */
function terminalHint(workspace: string): string {
  const self =
    path.basename(process.argv[1] ?? '') === 'agent-ledger'
      ? ['agent-ledger']
      : ['node', process.argv[1] ?? 'dist/cli.js'];
  return [
    'This is an MCP server: it speaks JSON-RPC over stdin/stdout with the MCP client that starts it (VS Code, Claude Code, Cursor…); typing here does nothing useful.',
    'To try it by hand, open the MCP Inspector on it:',
    `  npx @modelcontextprotocol/inspector ${quote([...self, 'mcp', 'serve', '--workspace', workspace])}`,
    `or read the ledger with the CLI: ${quote([...self, 'task', 'list', '--workspace', workspace])}`,
    'To serve several clients (or other machines) from one process, see `agent-ledger mcp serve --http`.',
    'Press Ctrl+C to stop.',
  ].join('\n');
}
