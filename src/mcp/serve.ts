import * as path from 'node:path';
import { quote } from 'shell-quote';
import type { Services } from '../app/services';
import { createServer } from './server';
import { LazyServices } from './lazyServices';
import { ServerLogin } from './serverLogin';
import { familyInfos, introspectionInfo, noToolsYet, resolveFamilies } from './families';
import { readBuiltListing } from './listing/builtListing';
import { serverLimits } from './limits';
import { GuardedStdioTransport } from './stdio/guardedStdioTransport';
import { features, featuresOf, resolveFeatures } from './features';
import type { ListingOptions } from './features';
import { errorMessage } from '../core/errors';
import { Housekeeping } from './housekeeping';
import { warmUpStore } from '../app/storeWarmUp';
import { flushCompileCache } from '../app/compileCache';
import { runAsLedger } from '../core/limits/callIdentity';

/** How often a server applies the events log's retention rule. */
const EVENT_PRUNE_INTERVAL_MS = 5 * 60_000;

export interface ServeOptions {
  workspace: string;
  dbPath?: string;
  enable?: readonly string[];
  disable?: readonly string[];
  /** Feature switches (features.ts): `--enable-resources`, `--disable-locks`… */
  enableFeatures?: readonly string[];
  disableFeatures?: readonly string[];
  verbose?: boolean;
  /** Accept `user_response` from agents at pipeline checkpoints (off: a person decides). */
  allowAgentCheckpoints?: boolean;
  /** `--worktrees-dir`: where task worktrees go instead of `.agent-ledger/worktrees`. */
  worktreesDir?: string;
  /** `--list-deprecated`, `--list-runner-tools`: answered tools also listed. */
  list?: ListingOptions;
  /** `--child-program`, `--child-env`: what child runtimes may run and inherit. */
  childPrograms?: readonly string[];
  childEnv?: readonly string[];
}

/** How long after `initialized` the ledger opens when the client has not listed the tools by then. */
const WARM_UP_AFTER_INITIALIZED_MS = 100;

/**
 * How long after answering tools/list the ledger starts opening, unless a call opens it first. An
 * SDK client compiles a validator for every listed output schema right then, on the CPU the
 * opening would take (docs/performance.md, "Start-up"); a call that comes at once still opens the
 * ledger at once.
 */
const WARM_UP_AFTER_LIST_MS = 200;

/** How long a closing server waits for its children to stop and their ends to be recorded. */
const childStopMs = 3000;

const log = (line: string): void => console.error(`[agent-ledger] ${line}`);

/**
 * Runs one MCP server process over stdio until the client closes stdin. stdout carries only
 * the protocol (STYLE.md habit 7): anything else a library prints goes to stderr. Nothing a
 * client sends ends the process: bad frames are refused by the transport, and an exception
 * that escapes a handler is logged, not fatal.
 */
export async function serveStdio(options: ServeOptions): Promise<void> {
  console.log = console.error;
  console.info = console.error;
  process.on('uncaughtException', (err) => log(`unexpected error (the server goes on): ${err.stack ?? String(err)}`));
  process.on('unhandledRejection', (err) =>
    log(
      `unexpected rejection (the server goes on): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    ),
  );
  // sql.js compiles on another core while this one answers initialize and tools/list.
  warmUpStore(options.dbPath);
  const familySet = resolveFamilies(familyInfos, options.enable, options.disable);
  const featureSet = resolveFeatures(familySet, options.enableFeatures, options.disableFeatures);
  const workspace = path.resolve(options.workspace);
  // The launch ticket is taken first, before this process starts anything that could inherit it.
  const login = ServerLogin.fromEnvironment(workspace, process.env, log);
  // The store, sql.js, Git and the domain are loaded when first needed (docs/performance.md): the
  // tools are listed without them, and they open once the client has read the list (or at its first call).
  const services = new LazyServices(async () => {
    const { createServices } = await import('../app/services.js');
    return createServices({
      workspace,
      dbPath: options.dbPath,
      watch: true,
      allowAgentCheckpoints: options.allowAgentCheckpoints === true,
      worktreesDir: options.worktreesDir,
      childPrograms: options.childPrograms,
      childEnv: options.childEnv,
    });
  });
  let housekeeping: Housekeeping | undefined;
  let closing: Promise<void> | undefined;
  services.whenOpen((open) => {
    // By now this process has compiled what a start needs: keep it for the next start (Node ≥ 22.10).
    setTimeout(flushCompileCache, 1000).unref();
    if (closing) return; // opened while the client went: nothing to keep tidy
    // The ledger's own work: never charged to the caller whose call happened to open the ledger.
    housekeeping = new Housekeeping(
      [
        ['event retention', () => runAsLedger(() => open.eventBus.prune())],
        ['blackboard expiry', () => runAsLedger(() => open.blackboard.purgeExpired())],
        ['contract-net calls of ended tasks', () => runAsLedger(() => open.scheduling.contractNet.purgeEndedCalls())],
      ],
      log,
      EVENT_PRUNE_INTERVAL_MS,
    );
    housekeeping.start();
  });
  const warmUp = (): void =>
    void services
      .get()
      .catch((err: unknown) =>
        log(`opening the ledger failed (each tool call says why and tries again): ${errorMessage(err)}`),
      );
  // A ledger the user named (`--db`, AGENT_LEDGER_DB: a PostgreSQL URL, a file elsewhere) starts
  // opening at once, so a wrong, unreachable or refused location is on stderr as the server starts.
  // The server answers all the same and each tool call gives the coded reason (and tries again): a
  // client shows why, where a server that exited showed nothing. The workspace's own ledger opens
  // on first use.
  if (options.dbPath !== undefined) warmUp();
  let warmUpTimer: NodeJS.Timeout | undefined;
  let listed = false;
  const warmUpIn = (ms: number): void => {
    clearTimeout(warmUpTimer);
    warmUpTimer = setTimeout(warmUp, ms).unref();
  };
  // The tools as the build listed them; from sources (no dist/), computed from the contracts.
  const listing = readBuiltListing() ?? (await (await import('./listing/liveListing.js')).liveListing());
  const { server, dispose } = await createServer(services, {
    enabled: familySet,
    features: featureSet,
    login,
    afterToolsListed: () => {
      if (!listed) warmUpIn(WARM_UP_AFTER_LIST_MS);
      listed = true;
    },
    listing,
    families: [introspectionInfo, ...familyInfos],
    list: options.list,
    // A family's tools are built with its first call: the loader itself is not evaluated before then.
    load: async (family) => (await import('./catalog.js')).loadFamily(family),
  });
  // A client that never lists the tools still finds the ledger open soon after it said hello.
  server.oninitialized = () => {
    if (!listed) warmUpIn(WARM_UP_AFTER_INITIALIZED_MS);
  };
  const transport = new GuardedStdioTransport(
    { maxMessageBytes: serverLimits.maxMessageBytes, maxJsonDepth: serverLimits.maxJsonDepth },
    log,
  );
  // The housekeeping stops first (its round in flight ends); children this server started are
  // stopped and their ends recorded (bounded); then the ledger closes.
  const shutdown = (): Promise<void> =>
    (closing ??= (async () => {
      clearTimeout(warmUpTimer);
      await housekeeping?.stop();
      const open = services.current();
      if (open)
        await Promise.race([
          open.children.dispose(),
          new Promise<void>((resolve) => setTimeout(resolve, childStopMs).unref()),
        ]);
      dispose();
      await services
        .dispose((s: Services) => s.dispose())
        .catch((err: unknown) => log(`closing the ledger failed: ${errorMessage(err)}`));
    })());
  server.onclose = () => void shutdown();
  server.onerror = (err) => log(`protocol error: ${err.message}`);
  process.stdin.on('end', () => void shutdown().finally(() => process.exit(0)));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => void shutdown().finally(() => process.exit(0)));
  }
  await server.connect(transport);
  if (options.verbose) {
    const inner = transport.onmessage;
    transport.onmessage = (message) => {
      const m = message as { method?: string; id?: unknown; params?: { name?: string } };
      log(
        `← ${m.method ? JSON.stringify(m.method) : 'response'}${m.params?.name ? ` ${JSON.stringify(m.params.name)}` : ''}${m.id !== undefined ? ` #${JSON.stringify(m.id)}` : ''}`,
      );
      inner?.(message);
    };
  }
  const familyList = listing.families
    .filter((f) => familySet.has(f.name))
    .map((f) => (f.tools.length ? f.name : `${f.name} (${noToolsYet})`));
  // Features that expose tools of a family that is off (idempotency, always on, exposes none).
  const naming = new Set(listing.families.flatMap((f) => Object.values(f.facts).flatMap((t) => featuresOf(t))));
  const extra = features
    .filter((f) => naming.has(f.name) && featureSet.has(f.name) && !familySet.has(f.family))
    .map((f) => f.name);
  if (extra.length) familyList.push(`features: ${extra.join(', ')}`);
  log(`MCP server ready on ${workspace} (families: ${familyList.join(', ')})`);
  if (process.stdin.isTTY) log(terminalHint(workspace));
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
    'Press Ctrl+C to stop.',
  ].join('\n');
}
