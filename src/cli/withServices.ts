import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import type { Services } from '../app/services';
import { LedgerError } from '../core/errors';
import type { CommonOptions } from './output';
import { printErrorLines, reportError, style } from './output';
import { findWorkspace, refuseSecondLedger } from '../app/ledgerDiscovery';

/**
 * Opens the workspace's store for one command, runs it, closes the store, and turns a
 * failure into the task-management contract's exit code. Read-only commands never create `.agent-ledger/`.
 */
export async function withServices(
  cmd: Command,
  mode: { readonly: boolean; sessionsLiveInParent?: boolean },
  run: (services: Services) => Promise<void> | void,
): Promise<void> {
  const opts = cmd.optsWithGlobals<CommonOptions & WorktreesOption & ChildOptions>();
  let services: Services | undefined;
  try {
    const workspace = resolveWorkspace(opts.workspace, opts);
    // Loaded here, not at start-up: `mcp serve` and `--help` never load the store, sql.js or Git.
    const { createServices, ownParentsSessions } = await import('../app/services.js');
    // A one-shot command exits at once: a session it starts lives in the shell that ran it
    // (`eval "$(agent-ledger worker command 5)"` runs the agent there).
    if (mode.sessionsLiveInParent) ownParentsSessions();
    services = await createServices({
      workspace,
      dbPath: opts.db,
      readonly: mode.readonly,
      worktreesDir: worktreesDirOption(opts),
      ...childOptions(opts),
    });
    await run(services);
  } catch (err) {
    process.exitCode = reportError(err, opts.json === true);
  } finally {
    await services?.dispose();
  }
}

/** `--worktrees-dir <dir>` (global): where task worktrees go instead of `.agent-ledger/worktrees`. */
export interface WorktreesOption {
  worktreesDir?: string;
}

export function worktreesDirOption(opts: WorktreesOption): string | undefined {
  const dir = opts.worktreesDir?.trim();
  return dir ? path.resolve(dir) : undefined;
}

/** `--child-program` and `--child-env` (global, repeatable): what child runtimes may run and inherit. */
export interface ChildOptions {
  childProgram?: string[];
  childEnv?: string[];
}

export function childOptions(opts: ChildOptions): { childPrograms: string[]; childEnv: string[] } {
  return { childPrograms: opts.childProgram ?? [], childEnv: opts.childEnv ?? [] };
}

/**
 * The workspace of a command: `--workspace` as given (refused when it would start a second ledger
 * inside a repository that has one: ledgerDiscovery.ts), else found from the current folder the way
 * Git finds the repository — saying which one on stderr when it is not the current folder.
 */
export function resolveWorkspace(
  workspace: string | undefined,
  o: { db?: string; json?: boolean; secondLedgerOk?: boolean } = {},
): string {
  if (workspace === undefined) {
    const found = findWorkspace(process.cwd());
    if (found.note && o.json !== true) printErrorLines([style.dim(`agent-ledger: ${found.note}`)]);
    return found.workspace;
  }
  const dir = path.resolve(workspace);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    throw new LedgerError('ConfigError', `workspace ${dir} is not a folder; pass --workspace <folder>`);
  }
  // A ledger file named with --db is the person's choice; the MCP server serves the folder it is given.
  if (o.db === undefined && o.secondLedgerOk !== true) refuseSecondLedger(dir);
  return dir;
}
