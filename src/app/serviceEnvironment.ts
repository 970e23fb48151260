import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LedgerLocation } from '../store/location';
import { LedgerError } from '../core/errors';
import type { McpServerLaunch } from '../core/runtime/launch/clientLaunch';
import { serverNodeFlags } from './serverNodeFlags';
import { inheritedEnv } from '../core/runtime/children/childEnvironment';
import type { LedgerPaths } from './ledgerPaths';
import type { Clock } from '../core/time';
import { parseLimits } from '../core/limits/ledgerLimits';
import type { LedgerLimits } from '../core/limits/ledgerLimits';

export interface ServiceOptions {
  workspace: string;
  /** `--db` / AGENT_LEDGER_DB: an image file path (or file:// URL), or a postgres:// URL (password from the URL, AGENT_LEDGER_DB_PASSWORD or PGPASSWORD). */
  dbPath?: string;
  /**
   * The PostgreSQL password when it comes from neither the URL nor this process's environment
   * (the editor's secret storage): used for the connection and put in child runtimes'
   * environment, never in an argument or a log.
   */
  dbPassword?: string;
  readonly?: boolean;
  /** Poll the journal so other processes' writes are noticed without reads (views, MCP notifications). */
  watch?: boolean;
  clock?: Clock;
  /** Let agents answer pipeline checkpoints with `user_response` (`mcp serve --allow-agent-checkpoints`); off: a person decides. */
  allowAgentCheckpoints?: boolean;
  /**
   * Where task worktrees go when not `.agent-ledger/worktrees` (`--worktrees-dir`, the
   * `agentLedger.worktreesDir` setting): always the user's word, never a file of the repository.
   */
  worktreesDir?: string;
  /**
   * Programs child runtimes may run besides those of the committed agent definitions
   * (`--child-program`): the person's word, given on the server's command line.
   */
  childPrograms?: readonly string[];
  /** Variables child runtimes inherit besides the built-in list (`--child-env`). */
  childEnv?: readonly string[];
}

/*
 * What createServices reads from the process's environment and passes on to the processes it
 * starts: the session time-out, the database's password and retry time, and how a child runtime
 * starts this ledger's MCP server with the same store.
 */

/**
 * Seconds of inactivity after which an agent's session ends: `AGENT_LEDGER_SESSION_TTL_SECONDS`
 * (at least 1), else one hour.
 */
export function sessionTtlSeconds(): number | undefined {
  const raw = process.env.AGENT_LEDGER_SESSION_TTL_SECONDS?.trim();
  if (!raw) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new LedgerError(
      'ConfigError',
      `AGENT_LEDGER_SESSION_TTL_SECONDS=${raw}: give a whole number of seconds, at least 1`,
    );
  return n;
}

/**
 * The ledger's bounds (docs/limits.md): the defaults, with what `AGENT_LEDGER_LIMITS` changes
 * (`name=value` pairs, e.g. `quotaBytes=64MiB,loginSourceMaxWaitMs=5m`). A wrong one is a ConfigError.
 */
export function ledgerLimits(env: NodeJS.ProcessEnv = process.env): LedgerLimits {
  return parseLimits(env.AGENT_LEDGER_LIMITS);
}

/**
 * This ledger's MCP server as a Codex child runtime starts it: the built CLI beside this bundle,
 * under the node running us, on the same workspace and store. Unknown (undefined) when running
 * from sources or inside the editor (whose executable is not node).
 */
export function ledgerServerLaunch(
  paths: LedgerPaths,
  dbFile: boolean,
  options: ServiceOptions,
): McpServerLaunch | undefined {
  const cli = path.join(__dirname, 'cli.js');
  if (process.versions.electron !== undefined || !fs.existsSync(cli)) return undefined;
  const args = [...serverNodeFlags, cli, 'mcp', 'serve', '--workspace', paths.workspace, '--enable-orchestrator'];
  if (dbFile) args.push('--db', paths.dbPath);
  if (options.worktreesDir !== undefined) args.push('--worktrees-dir', paths.worktreesDir);
  // A database URL (and its password) is never an argument nor written in a configuration: the
  // child has it in its environment (childEnv) and passes it on to the server by name.
  const forwardEnv =
    dbFile || (options.dbPath === undefined && process.env.AGENT_LEDGER_DB === undefined)
      ? []
      : databaseVariables.filter(
          (name) =>
            name === 'AGENT_LEDGER_DB' ||
            process.env[name] !== undefined ||
            (name === 'AGENT_LEDGER_DB_PASSWORD' && options.dbPassword !== undefined),
        );
  return { name: 'agent-ledger', command: process.execPath, args, forwardEnv };
}

const databaseVariables = ['AGENT_LEDGER_DB', 'AGENT_LEDGER_DB_PASSWORD', 'PGPASSWORD'];

/**
 * A child runtime's environment, built (childEnvironment.ts): the inherited list and `--child-env`,
 * plus, for a PostgreSQL ledger, its URL and password (a Codex child's ledger server needs them).
 */
export function childEnv(location: LedgerLocation, options: ServiceOptions): Record<string, string> {
  const env = inheritedEnv(process.env, options.childEnv);
  if (location.kind !== 'postgres') return env;
  const url = options.dbPath ?? process.env.AGENT_LEDGER_DB;
  if (url !== undefined) env.AGENT_LEDGER_DB = url;
  const password = options.dbPassword ?? process.env.AGENT_LEDGER_DB_PASSWORD;
  if (password !== undefined) env.AGENT_LEDGER_DB_PASSWORD = password;
  if (options.dbPassword === undefined && process.env.PGPASSWORD !== undefined) env.PGPASSWORD = process.env.PGPASSWORD;
  return env;
}

/** Where the engine reads the password: the one given (the editor's secret storage) before this process's environment. */
export function databaseEnv(options: ServiceOptions): NodeJS.ProcessEnv {
  return options.dbPassword === undefined
    ? process.env
    : { ...process.env, AGENT_LEDGER_DB_PASSWORD: options.dbPassword, PGPASSWORD: undefined };
}

/** AGENT_LEDGER_DB_RETRY_MS: how long a PostgreSQL call keeps retrying while the server is out of reach (default 15 s). */
export function retryMsOf(value: string | undefined): number | undefined {
  const ms = value === undefined ? NaN : Number(value);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}
