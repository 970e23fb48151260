import type { Command } from 'commander';
import type { AgentListResult } from '../../core/agents/agentContracts';
import type { AgentDefinition } from '../../core/agents/agentModel';
import { agentYaml } from '../../core/agents/agentFiles';
import { style, table } from '../output';
import { visible, visibleBlock } from '../terminalText';
import { runToolCommand } from '../toolCommand';

/** `agent-ledger agent …`: agent_list and agent_get. */
export function registerAgentCommands(program: Command): void {
  const agent = program.command('agent').description('Agent definitions (.agent-ledger/agents/<name>.yaml or .md)');

  agent
    .command('list')
    .description('List agent definitions; coder and reviewer are created on first use (agent_list)')
    .action((_o: unknown, cmd: Command) =>
      runToolCommand(cmd, {
        tool: 'agent_list',
        args: {},
        format: ({ agents, problems }: AgentListResult) => {
          const rows = [[style.dim('NAME'), style.dim('CLIENT'), style.dim('MODEL'), style.dim('WRITE'), style.dim('DESCRIPTION')]];
          for (const a of agents) rows.push([style.bold(visible(a.name)), a.client, visible(a.model ?? '-'), a.scope.write.map(visible).join(', ') || 'read-only', visible(a.description)]);
          return [...table(rows), ...problems.map((p) => style.yellow(`⚠ ${visible(p.file)}: ${visible(p.message)}`))];
        },
      }),
    );

  agent
    .command('get')
    .alias('show')
    .description('Show an agent definition as YAML (agent_get)')
    .argument('<name>', 'agent name')
    .action((name: string, _o: unknown, cmd: Command) =>
      runToolCommand(cmd, {
        tool: 'agent_get',
        args: { name },
        format: (a: AgentDefinition) => [style.dim(`# ${visible(a.file)}`), visibleBlock(agentYaml(a, Infinity).trimEnd())],
      }),
    );
}
