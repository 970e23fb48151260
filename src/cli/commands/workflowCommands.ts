import type { Command } from 'commander';
import type { Services } from '../../app/services';
import { workflowStatus, workflowView } from '../../core/workflows/workflowViews';
import { taskKey, workflowKey } from '../../core/ids';
import { depthFirst } from '../../core/tasks/taskTree';
import type { CommonOptions } from '../output';
import { age, duration, printJson, printLines, style, table } from '../output';
import { statusMark } from './taskFormat';
import { visible, visibleBlock } from '../terminalText';
import { withServices } from '../withServices';
import { formatCostSummary, formatUsd } from '../../core/format';
import { positiveInt } from '../args';

export function registerWorkflowCommands(workflow: Command): void {
  workflow
    .command('list')
    .description('List workflows, most recently active first')
    .option('--limit <n>', 'how many to show', positiveInt, 50)
    .action((opts: CommonOptions & { limit: number }, cmd: Command) =>
      withServices(cmd, { readonly: true }, (services) =>
        listWorkflows(services, opts.limit, cmd.optsWithGlobals<CommonOptions>().json === true),
      ),
    );

  workflow
    .command('show')
    .description('Show a workflow, its plan and its task tree')
    .argument('<id>', 'workflow id (wf-3 or 3)')
    .action((id: string, _opts: CommonOptions, cmd: Command) =>
      withServices(cmd, { readonly: true }, (services) =>
        showWorkflow(services, id, cmd.optsWithGlobals<CommonOptions>().json === true),
      ),
    );
}

async function listWorkflows(services: Services, limit: number, json: boolean): Promise<void> {
  const { workflows, total } = await services.queries.listWorkflows(limit);
  if (json) {
    printJson({
      workflows: workflows.map((w) => ({
        id: workflowKey(w.id),
        name: w.name,
        status: w.running ? 'running' : w.taskCount === 0 ? 'empty' : w.failed ? 'failed' : 'done',
        tasks: w.taskCount,
        running: w.running,
        done: w.done,
        failed: w.failed,
        createdAt: w.createdAt,
        updatedAt: w.updatedAt,
      })),
      total,
    });
    return;
  }
  if (workflows.length === 0) {
    printLines([
      'No workflows yet. An agent starts one with the start_workflow tool (see README: "Connect an agent").',
    ]);
    return;
  }
  const rows = [[style.dim('ID'), style.dim('TASKS'), style.dim('RUNNING'), style.dim('UPDATED'), style.dim('NAME')]];
  for (const w of workflows)
    rows.push([
      style.bold(workflowKey(w.id)),
      String(w.taskCount),
      w.running ? style.cyan(String(w.running)) : '0',
      age(w.updatedAt),
      visible(w.name),
    ]);
  printLines(table(rows));
  if (total > workflows.length) printLines([style.dim(`… ${total - workflows.length} more (use --limit)`)]);
}

async function showWorkflow(services: Services, id: string, json: boolean): Promise<void> {
  const { workflow, tasks } = await services.queries.workflow(id);
  const cost = await services.costs.ofWorkflow(workflow.id);
  if (json) {
    printJson({ ...workflowView(workflow, tasks), cost });
    return;
  }
  const lines = [
    `${style.bold(workflowKey(workflow.id))}  ${style.bold(visible(workflow.name))}  ${style.dim(workflowStatus(tasks))}`,
  ];
  if (workflow.description)
    lines.push(
      ...visibleBlock(workflow.description)
        .split('\n')
        .map((l) => `  ${l}`),
    );
  lines.push(style.dim(`  created ${workflow.createdAt} · updated ${age(workflow.updatedAt)} ago`));
  if (cost.runs > 0) lines.push(`  ${style.bold('Cost')}: ${formatCostSummary(cost)}`);
  if (workflow.plan.length) {
    lines.push('', style.bold('Plan'));
    for (const p of workflow.plan) lines.push(`  ${visible(p.step)}. ${visible(p.goal)}`);
  }
  lines.push('', style.bold(`Tasks (${tasks.length})`));
  if (tasks.length === 0) lines.push(style.dim('  none yet'));
  for (const { task: t, depth } of depthFirst(tasks)) {
    const spent = cost.byTask.find((c) => c.taskId === taskKey(t.id));
    const detail = `${t.status === 'in_progress' ? `${t.progress ?? 0}%${t.lastMilestone ? `  ${visible(t.lastMilestone)}` : ''}` : duration(t.durationSeconds)}${spent ? `  ${formatUsd(spent.costUsd)}` : ''}`;
    lines.push(
      `${'  '.repeat(depth + 1)}${statusMark(t)} ${style.bold(taskKey(t.id))}  ${visible(t.title)}  ${style.dim(detail)}`,
    );
  }
  printLines(lines);
}
