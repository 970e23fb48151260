import { Command, Option } from 'commander';
import { version } from '../app/version';
import { topCommands } from './commandTable';

const worktreesFlag = '--worktrees-dir <dir>';
const childProgramFlag = '--child-program <program>';
const childProgramHelp =
  'let child runtimes run <program> (as written: a bare name on PATH or an absolute path), besides the programs of the agent definitions committed in the repository; repeat for more. The person’s word: never put it in a file an agent can edit';
const childEnvFlag = '--child-env <name>';
const childEnvHelp = 'let child runtimes inherit the variable <name> besides the built-in list; repeat for more';
const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
const worktreesHelp =
  'put task worktrees in <dir>/<workspace>-<hash>/ instead of <workspace>/.agent-ledger/worktrees (e.g. another disk)';

/** `--db`, or the environment variable AGENT_LEDGER_DB when the flag is absent (the password never belongs in either: AGENT_LEDGER_DB_PASSWORD or PGPASSWORD). */
function dbOption(): Option {
  return new Option(
    '--db <file|url>',
    'ledger database: a file (default: <workspace>/.agent-ledger/ledger.db) or a postgres:// URL (password from AGENT_LEDGER_DB_PASSWORD or PGPASSWORD)',
  ).env('AGENT_LEDGER_DB');
}

/**
 * The `agent-ledger` command tree. Every command takes --workspace, --db and --json. Given the
 * command line, only the top-level commands it names are built whole (commandTable.ts): the
 * others are listed by name and description, without their subcommands or the modules they load.
 * Without a command line, every command is built (what the tests walk).
 */
export async function buildProgram(argv?: readonly string[]): Promise<Command> {
  const program = new Command('agent-ledger')
    .description(
      'Agent Ledger: the shared ledger of what AI coding agents did in a workspace, with exact Git changes per task.',
    )
    .version(version, '-v, --version')
    .option('-w, --workspace <dir>', 'workspace folder (default: the current folder)')
    .addOption(dbOption())
    .option(worktreesFlag, worktreesHelp)
    .option(childProgramFlag, childProgramHelp, collect)
    .option(childEnvFlag, childEnvHelp, collect)
    .option('--json', 'print JSON instead of text')
    .showHelpAfterError('(run with --help for usage)')
    .enablePositionalOptions(false)
    .exitOverride();
  const named = topCommands.filter((top) => argv === undefined || argv.includes(top.name));
  const loaded = new Map(await Promise.all(named.map(async (top) => [top, await top.load()] as const)));
  for (const top of topCommands) {
    const cmd = program.command(top.name).description(top.description);
    loaded.get(top)?.(cmd);
  }
  // Options are accepted before or after the subcommand: `agent-ledger task list --json`.
  for (const cmd of allCommands(program)) {
    cmd.exitOverride();
    if (cmd !== program) {
      cmd.option('-w, --workspace <dir>', 'workspace folder (default: the current folder)');
      cmd.addOption(dbOption());
      cmd.option(worktreesFlag, worktreesHelp);
      cmd.option(childProgramFlag, childProgramHelp, collect);
      cmd.option(childEnvFlag, childEnvHelp, collect);
      cmd.option('--json', 'print JSON instead of text');
    }
  }
  return program;
}

function allCommands(cmd: Command): Command[] {
  return [cmd, ...cmd.commands.flatMap(allCommands)];
}
