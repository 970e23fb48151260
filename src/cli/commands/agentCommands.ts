import type { Command } from 'commander';
import type { AgentListResult } from '../../core/agents/agentContracts';
import type { AgentDefinition } from '../../core/agents/agentModel';
import { agentYaml } from '../../core/agents/agentFiles';
import { style, table } from '../output';
import { visible, visibleBlock } from '../terminalText';
import { runToolCommand } from '../toolCommand';
import { withServices } from '../withServices';
import { printJson, printLines } from '../output';
import type { CommonOptions } from '../output';
import { validationError } from '../../core/errors';
import { randomBytes } from 'node:crypto';

/** `agent-ledger agent …`: agent_list and agent_get. */
export function registerAgentCommands(agent: Command): void {
  agent
    .command('list')
    .description('List agent definitions; coder and reviewer are created on first use (agent_list)')
    .action((_o: unknown, cmd: Command) =>
      runToolCommand(cmd, {
        tool: 'agent_list',
        args: {},
        format: ({ agents, problems }: AgentListResult) => {
          const rows = [
            [style.dim('NAME'), style.dim('CLIENT'), style.dim('MODEL'), style.dim('WRITE'), style.dim('DESCRIPTION')],
          ];
          for (const a of agents)
            rows.push([
              style.bold(visible(a.name)),
              a.client,
              visible(a.model ?? '-'),
              a.scope.write.map(visible).join(', ') || 'read-only',
              visible(a.description),
            ]);
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
        format: (a: AgentDefinition) => [
          style.dim(`# ${visible(a.file)}`),
          visibleBlock(agentYaml(a, Infinity).trimEnd()),
        ],
      }),
    );

  agent
    .command('passkey')
    .description(
      'Set the passkey an agent logs in with (authenticate): read from standard input, or --generate one and print it once. Only its scrypt hash is stored',
    )
    .argument('<name>', 'agent name')
    .option('--generate', 'make a random passkey and print it once (store it where the runner reads it)')
    .action((name: string, o: { generate?: boolean }, cmd: Command) => {
      const json = cmd.optsWithGlobals<CommonOptions>().json === true;
      return withServices(cmd, { readonly: false }, async (services) => {
        const passkey = o.generate ? randomBytes(24).toString('base64url') : await passkeyFromStdin();
        await services.runtime.setPasskey(name, passkey);
        if (json) printJson({ agent_id: name, ...(o.generate ? { passkey } : {}) });
        else
          printLines(
            o.generate ? [`passkey of ${visible(name)} (shown once):`, passkey] : [`passkey of ${visible(name)} set`],
          );
      });
    });
}

/**
 * The passkey piped on standard input (never an argument: command lines are visible to every user of
 * the machine), without the one final newline `echo` and files end with; any other line break is
 * left in, for setPasskey to refuse.
 */
async function passkeyFromStdin(): Promise<string> {
  if (process.stdin.isTTY)
    throw validationError(
      'pipe the passkey on standard input (e.g. from a password manager) or pass --generate; it is never taken as an argument',
    );
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (!text) throw validationError('no passkey on standard input; pipe one in or pass --generate');
  return text;
}
