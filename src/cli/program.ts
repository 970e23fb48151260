import { Command, Option } from 'commander';
import { version } from '../version';
import { registerMcpCommands } from './commands/mcpServe';
import { registerWorkflowCommands } from './commands/workflowCommands';
import { registerTaskCommands } from './commands/taskCommands';
import { registerAgentCommands } from './commands/agentCommands';
import { registerWorkerCommands } from './commands/workerCommands';
import { registerSessionCommands } from './commands/sessionCommands';
import { registerMemoryCommands } from './commands/memoryCommands';
import { registerPipelineCommands } from './commands/pipelineCommands';
import { registerDbCommands } from './commands/dbCommands';
import { registerRunnerCommands } from './commands/runnerCommands';
import { registerProjectCommands } from './commands/projectCommands';
import { registerToolGroups } from './toolGroups';
import type { ToolGroup } from './toolGroups';
import type { CatalogTool } from '../mcp/toolDefinition';
import { blackboardGroup, eventsGroup, graphGroup, resourcesGroup } from './commands/coordinationCommands';
import { contractNetGroup, knowledgeGroup, stigmergyGroup } from './commands/schedulingCommands';
import { childGroup } from './commands/childCommands';

const worktreesFlag = '--worktrees-dir <dir>';

/** The orchestrator family's tools, one group per concept, options read from each tool's schema. */
export const toolGroups: readonly ToolGroup[] = [blackboardGroup, graphGroup, resourcesGroup, eventsGroup, stigmergyGroup, contractNetGroup, knowledgeGroup, childGroup];
const worktreesHelp = 'put task worktrees in <dir>/<workspace>-<hash>/ instead of <workspace>/.agent-ledger/worktrees (e.g. another disk)';

/** `--db`, or the environment variable AGENT_LEDGER_DB when the flag is absent (the password never belongs in either: AGENT_LEDGER_DB_PASSWORD or PGPASSWORD). */
function dbOption(): Option {
  return new Option('--db <file|url>', 'ledger database: a file (default: <workspace>/.agent-ledger/ledger.db) or a postgres:// URL (password from AGENT_LEDGER_DB_PASSWORD or PGPASSWORD)').env('AGENT_LEDGER_DB');
}

/**
 * The `agent-ledger` command tree. Every command takes --workspace, --db and --json. The tool
 * groups get their subcommands only from `tools` (the catalog's, which main.ts imports only for a
 * command line that names a group) and, given the command line, only the group it names.
 */
export function buildProgram(argv?: readonly string[], tools?: readonly CatalogTool[]): Command {
  const program = new Command('agent-ledger')
    .description('Agent Ledger: the shared ledger of what AI coding agents did in a workspace, with exact Git changes per task.')
    .version(version, '-v, --version')
    .option('-w, --workspace <dir>', 'workspace folder (default: the current folder)')
    .addOption(dbOption())
    .option(worktreesFlag, worktreesHelp)
    .option('--json', 'print JSON instead of text')
    .showHelpAfterError('(run with --help for usage)')
    .enablePositionalOptions(false)
    .exitOverride();
  registerMcpCommands(program);
  registerWorkflowCommands(program);
  registerTaskCommands(program);
  registerAgentCommands(program);
  registerWorkerCommands(program);
  registerSessionCommands(program);
  registerMemoryCommands(program);
  registerPipelineCommands(program);
  registerProjectCommands(program);
  registerDbCommands(program);
  registerRunnerCommands(program);
  registerToolGroups(program, toolGroups, argv, tools);
  // Options are accepted before or after the subcommand: `agent-ledger task list --json`.
  for (const cmd of allCommands(program)) {
    cmd.exitOverride();
    if (cmd !== program) {
      cmd.option('-w, --workspace <dir>', 'workspace folder (default: the current folder)');
      cmd.addOption(dbOption());
      cmd.option(worktreesFlag, worktreesHelp);
      cmd.option('--json', 'print JSON instead of text');
    }
  }
  return program;
}

function allCommands(cmd: Command): Command[] {
  return [cmd, ...cmd.commands.flatMap(allCommands)];
}
