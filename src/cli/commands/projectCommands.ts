import type { Command } from 'commander';
import type { ProjectOutput } from '../../core/runtime/pm/projectContracts';
import type { Services } from '../../app/services';
import { printJson, printLines, style, table } from '../output';
import type { CommonOptions } from '../output';
import { visible } from '../terminalText';
import { idArg, runToolCommand } from '../toolCommand';
import { withServices } from '../withServices';

function projectLines(p: ProjectOutput): string[] {
  return [
    `${style.bold(p.project_id)} ${visible(p.name)} ${p.status === 'active' ? style.green(p.status) : style.dim(p.status)}`,
    `  folder: ${visible(p.working_directory)}`,
    `  agents: ${p.agents.map(visible).join(', ') || style.dim('none (add one with `agent-ledger project add-agent`)')}`,
    ...(p.description ? [`  ${visible(p.description)}`] : []),
  ];
}

/** Runs a command that is no tool (writes of a person, not of an agent) and prints its project. */
function projectCommand(cmd: Command, run: (services: Services) => Promise<ProjectOutput>): Promise<void> {
  const json = cmd.optsWithGlobals<CommonOptions>().json === true;
  return withServices(cmd, { readonly: false }, async (services) => {
    const p = await run(services);
    if (json) printJson(p);
    else printLines(projectLines(p));
  });
}

/**
 * `agent-ledger project …`: the projects of the agent PM. A project is a folder of this
 * workspace (`.` or a subfolder) with agents assigned to it; the runner launches those agents
 * there for their in_progress tasks.
 */
export function registerProjectCommands(project: Command): void {
  project
    .command('create')
    .description('Create a project: a folder of this workspace (the workspace itself by default)')
    .argument('<name>', 'project name, unique in this ledger')
    .option('--dir <folder>', 'working directory: a folder inside the workspace, absolute or relative to it', '.')
    .option('--description <text>', 'what the project is')
    .action((name: string, o: { dir: string; description?: string }, cmd: Command) =>
      projectCommand(cmd, (s) =>
        s.projects.create({ name, workingDirectory: o.dir, description: o.description ?? null }),
      ),
    );

  project
    .command('add-agent')
    .description('Assign an agent (by its definition’s name) to a project')
    .argument('<project>', 'project id (prj-1) or name')
    .argument('<agent>', 'agent name')
    .action((ref: string, agent: string, _o: unknown, cmd: Command) =>
      projectCommand(cmd, (s) => s.projects.addAgent(idArg(ref) ?? ref, agent)),
    );

  project
    .command('remove-agent')
    .description('Take an agent off a project')
    .argument('<project>', 'project id (prj-1) or name')
    .argument('<agent>', 'agent name')
    .action((ref: string, agent: string, _o: unknown, cmd: Command) =>
      projectCommand(cmd, (s) => s.projects.removeAgent(idArg(ref) ?? ref, agent)),
    );

  project
    .command('archive')
    .description('Stop serving a project to the runner (its tasks stay)')
    .argument('<project>', 'project id (prj-1) or name')
    .action((ref: string, _o: unknown, cmd: Command) =>
      projectCommand(cmd, (s) => s.projects.setStatus(idArg(ref) ?? ref, 'archived')),
    );

  project
    .command('activate')
    .description('Serve an archived project to the runner again')
    .argument('<project>', 'project id (prj-1) or name')
    .action((ref: string, _o: unknown, cmd: Command) =>
      projectCommand(cmd, (s) => s.projects.setStatus(idArg(ref) ?? ref, 'active')),
    );

  project
    .command('list')
    .description('List projects (list_projects)')
    .action((_o: unknown, cmd: Command) =>
      runToolCommand(cmd, {
        tool: 'list_projects',
        args: {},
        format: ({ projects }: { projects: ProjectOutput[] }) => {
          if (projects.length === 0)
            return [style.dim('no projects yet: agent-ledger project create <name> --dir <folder>')];
          const rows = [
            [style.dim('ID'), style.dim('NAME'), style.dim('STATUS'), style.dim('AGENTS'), style.dim('FOLDER')],
          ];
          for (const p of projects)
            rows.push([
              style.bold(p.project_id),
              visible(p.name),
              p.status,
              p.agents.map(visible).join(', ') || '-',
              visible(p.working_directory),
            ]);
          return table(rows);
        },
      }),
    );

  project
    .command('show')
    .alias('get')
    .description('Show a project with its task counts (get_project)')
    .argument('<project>', 'project id (prj-1) or name')
    .action((ref: string, _o: unknown, cmd: Command) =>
      runToolCommand(cmd, {
        tool: 'get_project',
        args: { project_id: idArg(ref) ?? ref },
        format: ({ project: p }: { project: ProjectOutput & { task_counts: Record<string, number> } }) => [
          ...projectLines(p),
          `  tasks: ${
            Object.entries(p.task_counts)
              .map(([s, n]) => `${n} ${s}`)
              .join(', ') || 'none'
          }`,
        ],
      }),
    );
}
