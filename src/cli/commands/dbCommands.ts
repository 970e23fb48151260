import type { Command } from 'commander';
import { checkLedger, repairLedger } from '../../maintenance';
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
 */
export function registerDbCommands(program: Command): void {
  const db = program.command('db').description('The ledger files: check them for damage, repair them');

  db.command('check')
    .description(`Report what is intact and what is lost in the image and journal; changes nothing (exit ${DAMAGE_EXIT} when damaged)`)
    .action((_opts: CommonOptions, cmd: Command) =>
      run(cmd, async (o) => {
        const report = await checkLedger(resolveWorkspace(o.workspace), o.db);
        if (o.json) printJson(report);
        else printLines(formatCheck(report));
        return report.ok ? 0 : DAMAGE_EXIT;
      }),
    );

  db.command('repair')
    .description(`Rebuild a damaged ledger from every intact record, keeping copies of the damaged files; says what it could not recover (exit ${DAMAGE_EXIT} then)`)
    .action((_opts: CommonOptions, cmd: Command) =>
      run(cmd, async (o) => {
        const report = await repairLedger(resolveWorkspace(o.workspace), o.db);
        if (o.json) printJson(report);
        else printLines(formatRepair(report));
        return report.lost.length || report.unrecoverable.length ? DAMAGE_EXIT : 0;
      }),
    );
}

async function run(cmd: Command, fn: (o: CommonOptions) => Promise<number>): Promise<void> {
  const o = cmd.optsWithGlobals<CommonOptions>();
  try {
    process.exitCode = await fn(o);
  } catch (err) {
    process.exitCode = reportError(err, o.json === true);
  }
}
