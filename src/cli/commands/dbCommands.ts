import type { Command } from 'commander';
import { storeAdmin } from '../../app/storeAdmin';
import type { CopyReport, SchemaReport, StoreErrorReason } from '../../app/storeAdmin';
import type { CommonOptions } from '../output';
import { printJson, printLines, reportError } from '../output';
import { resolveWorkspace } from '../withServices';
import { formatCheck, formatRepair } from './dbFormat';

/** Exit code of `db check` when it finds damage, and of `db repair` when something could not be recovered. */
export const DAMAGE_EXIT = 4;

/**
 * `agent-ledger db check|repair`: the store's files examined directly (a damaged ledger refuses
 * every ordinary command). Exit codes: 0 intact / repaired with nothing lost, 4 damage found /
 * something could not be recovered, others as every command.
 * `agent-ledger db init|migrate|copy`: the ledger's schema on either engine (`--db` a file path
 * or a postgres:// URL; the password from the URL, AGENT_LEDGER_DB_PASSWORD or PGPASSWORD), and
 * a whole ledger moved between them. Exit 3 for a location or login that does not work.
 */
export function registerDbCommands(db: Command): void {
  db.command('check')
    .description(
      `Report what is intact and what is lost in the image and journal; changes nothing (exit ${DAMAGE_EXIT} when damaged)`,
    )
    .action((_opts: CommonOptions, cmd: Command) =>
      run(cmd, async (o) => {
        const report = await storeAdmin.check(resolveWorkspace(o.workspace, o), o.db);
        if (o.json) printJson(report);
        else printLines(formatCheck(report));
        return report.ok ? 0 : DAMAGE_EXIT;
      }),
    );

  db.command('repair')
    .description(
      `Rebuild a damaged ledger from every intact record, keeping copies of the damaged files; says what it could not recover (exit ${DAMAGE_EXIT} then)`,
    )
    .action((_opts: CommonOptions, cmd: Command) =>
      run(cmd, async (o) => {
        const report = await storeAdmin.repair(resolveWorkspace(o.workspace, o), o.db);
        if (o.json) printJson(report);
        else printLines(formatRepair(report));
        return report.lost.length || report.unrecoverable.length ? DAMAGE_EXIT : 0;
      }),
    );

  db.command('init')
    .description(
      'Create the ledger schema at --db (an image file, or an existing PostgreSQL database: postgres://user@host/db), or upgrade an older one',
    )
    .action((_opts: CommonOptions, cmd: Command) =>
      run(cmd, async (o) => {
        const report = await storeAdmin.init(ledgerOf(o));
        if (o.json) printJson(report);
        else printLines([schemaLine(report, 'created')]);
        return 0;
      }),
    );

  db.command('migrate')
    .description('Upgrade the ledger schema at --db to this version of Agent Ledger (forward only, in one transaction)')
    .action((_opts: CommonOptions, cmd: Command) =>
      run(cmd, async (o) => {
        const report = await storeAdmin.migrate(ledgerOf(o));
        if (o.json) printJson(report);
        else printLines([schemaLine(report, 'migrated')]);
        return 0;
      }),
    );

  db.command('copy')
    .description(
      'Copy a whole ledger, ids kept, between the embedded store and PostgreSQL (either way) into an empty target',
    )
    .option(
      '--from <db>',
      'the ledger to copy: a file path or a postgres:// URL (default: --db, or the workspace ledger)',
    )
    .requiredOption(
      '--to <db>',
      'where to copy it: a file path or a postgres:// URL (created or upgraded first; must hold no ledger)',
    )
    .action((_opts: { from?: string; to: string }, cmd: Command) =>
      run(cmd, async (o) => {
        const { from, to } = cmd.opts<{ from?: string; to: string }>();
        const report = await storeAdmin.copy(from ?? ledgerOf(o), to);
        if (o.json) printJson(report);
        else printLines(copyLines(report));
        return 0;
      }),
    );
}

/** `--db` or the workspace's embedded ledger. */
function ledgerOf(o: CommonOptions): string {
  return o.db ?? storeAdmin.workspaceLedger(resolveWorkspace(o.workspace, o));
}

function schemaLine(r: SchemaReport, verb: string): string {
  const where = `${r.location} (${r.kind === 'postgres' ? 'PostgreSQL' : 'embedded'})`;
  if (r.from === 0) return `${where}: ledger schema ${verb === 'created' ? 'created' : 'migrated'} at v${r.to}.`;
  if (r.from === null || r.from === r.to) return `${where}: ledger schema is at v${r.to}.`;
  return `${where}: ledger schema migrated from v${r.from} to v${r.to}.`;
}

function copyLines(r: CopyReport): string[] {
  const total = r.tables.reduce((n, t) => n + t.rows, 0);
  return [
    `Copied ${total} rows (schema v${r.schemaVersion}) from ${r.from} to ${r.to}, ids kept:`,
    ...r.tables.filter((t) => t.rows > 0).map((t) => `  ${t.table.padEnd(20)} ${t.rows}`),
  ];
}

/** Exit codes of the store's own refusals: 3 configuration (where the ledger is, how to log in, its schema), 6 state. */
const exitOfReason: Partial<Record<StoreErrorReason, number>> = {
  badLocation: 3,
  authFailed: 3,
  unknownDatabase: 3,
  notInitialized: 3,
  needsMigration: 3,
  notEmpty: 6,
};

async function run(cmd: Command, fn: (o: CommonOptions) => Promise<number>): Promise<void> {
  const o = cmd.optsWithGlobals<CommonOptions>();
  try {
    process.exitCode = await fn(o);
  } catch (err) {
    process.exitCode = reportError(err, o.json === true);
    const reason = storeAdmin.reasonOf(err);
    if (reason !== undefined && exitOfReason[reason] !== undefined) process.exitCode = exitOfReason[reason];
  }
}
