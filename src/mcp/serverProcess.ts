import * as path from 'node:path';
import type { Services } from '../app/services';
import { LazyServices } from './lazyServices';
import { familyInfos, introspectionInfo, noToolsYet, resolveFamilies } from './families';
import { readBuiltListing } from './listing/builtListing';
import type { ToolListing } from './listing/builtListing';
import { features, featuresOf, resolveFeatures } from './features';
import { Housekeeping } from './housekeeping';
import type { ListingOptions } from './features';
import type { ServerOptions } from './server';
import { runAsLedger } from '../core/caller';
import { errorMessage } from '../core/errors';
import { warmUpStore } from '../app/storeWarmUp';
import { flushCompileCache } from '../app/compileCache';

/** How often a server applies the events log's retention rule. */
const EVENT_PRUNE_INTERVAL_MS = 5 * 60_000;

/** How long a closing server waits for its children to stop and their ends to be recorded. */
const childStopMs = 3000;

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

export const log = (line: string): void => console.error(`[agent-ledger] ${line}`);

/**
 * What every MCP server process shares, whatever its transport: stdout reserved for the protocol,
 * nothing a client sends ends the process, the ledger opened on first use (or at once when the
 * user named it), the events log's retention, the families and features switched on, the tools
 * listing, and an orderly shutdown (children stopped and recorded, then the ledger closed).
 */
export class ServerProcess {
  readonly workspace: string;
  readonly families: ReadonlySet<string>;
  readonly features: ReadonlySet<string>;
  readonly services: LazyServices;
  private housekeeping: Housekeeping | undefined;
  private closing: Promise<void> | undefined;
  private readonly onShutdown: (() => void)[] = [];

  private constructor(
    readonly options: ServeOptions,
    readonly listing: ToolListing,
  ) {
    this.workspace = path.resolve(options.workspace);
    this.families = resolveFamilies(familyInfos, options.enable, options.disable);
    this.features = resolveFeatures(this.families, options.enableFeatures, options.disableFeatures);
    const workspace = this.workspace;
    // The store, sql.js, Git and the domain are loaded when first needed (docs/performance.md): the
    // tools are listed without them, and they open once the client has read the list (or at its first call).
    this.services = new LazyServices(async () => {
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
    this.services.whenOpen((open) => this.startRetention(open));
  }

  static async start(options: ServeOptions): Promise<ServerProcess> {
    console.log = console.error;
    console.info = console.error;
    process.on('uncaughtException', (err) => log(`unexpected error (the server goes on): ${err.stack ?? String(err)}`));
    process.on('unhandledRejection', (err) =>
      log(
        `unexpected rejection (the server goes on): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      ),
    );
    // sql.js compiles on another core while this one answers the client's first requests.
    warmUpStore(options.dbPath);
    // The tools as the build listed them; from sources (no dist/), computed from the contracts.
    const listing = readBuiltListing() ?? (await (await import('./listing/liveListing.js')).liveListing());
    const server = new ServerProcess(options, listing);
    // A ledger the user named (`--db`, AGENT_LEDGER_DB: a PostgreSQL URL, a file elsewhere) starts
    // opening at once, so a wrong, unreachable or refused location is on stderr as the server starts.
    // The server answers all the same and each tool call gives the coded reason (and tries again): a
    // client shows why, where a server that exited showed nothing. The workspace's own ledger opens
    // on first use.
    if (options.dbPath !== undefined) server.warmUp();
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, () => void server.shutdown().finally(() => process.exit(0)));
    }
    return server;
  }

  /** What createServer needs of this process, whatever the transport: families, features, listing, loader. */
  serverOptions(): Pick<ServerOptions, 'enabled' | 'features' | 'listing' | 'families' | 'list' | 'load'> {
    return {
      enabled: this.families,
      features: this.features,
      listing: this.listing,
      families: [introspectionInfo, ...familyInfos],
      list: this.options.list,
      // A family's tools are built with its first call: the loader itself is not evaluated before then.
      load: async (family) => (await import('./catalog.js')).loadFamily(family),
    };
  }

  /** Opens the ledger now (in the background), logging a failure: each tool call says why and tries again. */
  warmUp(): void {
    void this.services
      .get()
      .catch((err: unknown) =>
        log(`opening the ledger failed (each tool call says why and tries again): ${errorMessage(err)}`),
      );
  }

  /** Runs `run` when the process shuts down (before the ledger closes). */
  beforeShutdown(run: () => void): void {
    this.onShutdown.push(run);
  }

  /** Children this server started are stopped and their ends recorded (bounded) before the ledger closes. */
  shutdown(): Promise<void> {
    return (this.closing ??= (async () => {
      // The housekeeping stops first (its round in flight ends), so none of it meets a closed ledger.
      await this.housekeeping?.stop();
      for (const run of this.onShutdown.splice(0)) {
        try {
          run();
        } catch (err) {
          log(`closing: ${errorMessage(err)}`);
        }
      }
      const open = this.services.current();
      if (open)
        await Promise.race([
          open.children.dispose(),
          new Promise<void>((resolve) => setTimeout(resolve, childStopMs).unref()),
        ]);
      await this.services
        .dispose((s: Services) => s.dispose())
        .catch((err: unknown) => log(`closing the ledger failed: ${errorMessage(err)}`));
    })());
  }

  /** The families listed in the ready line. */
  describeFamilies(): string {
    const familyList = this.listing.families
      .filter((f) => this.families.has(f.name))
      .map((f) => (f.tools.length ? f.name : `${f.name} (${noToolsYet})`));
    // Features that expose tools of a family that is off (idempotency, always on, exposes none).
    const naming = new Set(this.listing.families.flatMap((f) => Object.values(f.facts).flatMap((t) => featuresOf(t))));
    const extra = features
      .filter((f) => naming.has(f.name) && this.features.has(f.name) && !this.families.has(f.family))
      .map((f) => f.name);
    if (extra.length) familyList.push(`features: ${extra.join(', ')}`);
    return familyList.join(', ');
  }

  private startRetention(open: Services): void {
    // By now this process has compiled what a start needs: keep it for the next start (Node ≥ 22.10).
    setTimeout(flushCompileCache, 1000).unref();
    if (this.closing) return; // opened while the client went: nothing to keep tidy
    // The retention rule of the events log, and the purge of expired blackboard entries and of open
    // contract-net calls whose task ended: once now, then every few minutes. The ledger's own work:
    // never charged to the caller whose call happened to open the ledger.
    this.housekeeping = new Housekeeping(
      [
        ['event retention', () => runAsLedger(() => open.eventBus.prune())],
        ['blackboard expiry', () => runAsLedger(() => open.blackboard.purgeExpired())],
        ['contract-net calls of ended tasks', () => runAsLedger(() => open.scheduling.contractNet.purgeEndedCalls())],
      ],
      log,
      EVENT_PRUNE_INTERVAL_MS,
    );
    this.housekeeping.start();
  }
}
