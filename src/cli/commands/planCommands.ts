import type { Command } from 'commander';
import type { PlanDryRunOutput, PlanRunOutput } from '../../core/runtime/planRuns/planRunContracts';
import { formatUsd } from '../../core/format';
import type { CommonOptions } from '../output';
import { printJson, printLines, style, table } from '../output';
import { visible } from '../terminalText';
import { collect, numberArg, runToolCommand } from '../toolCommand';
import { withServices } from '../withServices';
import { resultLines } from '../resultText';

/**
 * `agent-ledger plan …`: run a workflow's plan with agents and steer it (plan_run_bt, plan_status,
 * plan_pause, plan_resume, plan_cancel, op_cancel, plan_dry_run, plan_compile_bt), and approve
 * the gates that wait for a person — a person's command, never a tool an agent can call.
 */
export function registerPlanCommands(plan: Command): void {
  plan
    .command('run')
    .description(
      "Run a workflow's plan: each task is queued for its agent when its dependencies are done, and `agent-ledger runner` launches it (plan_run_bt)",
    )
    .argument('<graph_id>', "the plan graph: a workflow's plan is wf-<id>")
    .option(
      '--agent <name>',
      'the agent of every task with none of its own (its node’s `agent`, --assign, its assignee)',
    )
    .option('--assign <task=agent>', 'who runs one task, e.g. task-3=reviewer (repeat)', collect)
    .option('--client <client>', "run every task with this client instead of its agent's: claude, codex or gemini")
    .option('--model <model>', 'the model every task runs with')
    .option('--var <name=value>', 'a variable the guards read (repeat)', collect)
    .option('--timeout-ms <ms>', 'cancel the whole run when it has not ended after this long')
    .option('--wait-ms <ms>', 'wait up to this long (at most 50 000) for the run to end before printing')
    .option('--reactive', 'tick it on a scheduler (plan_run_reactive) while this command waits')
    .option('--tick-ms <ms>', 'with --reactive: how often it is re-evaluated')
    .option('--idempotency-key <key>', 'a retried command with the same key starts nothing twice')
    .action(
      (
        graphId: string,
        o: {
          agent?: string;
          assign?: string[];
          client?: string;
          model?: string;
          var?: string[];
          timeoutMs?: string;
          waitMs?: string;
          reactive?: boolean;
          tickMs?: string;
          idempotencyKey?: string;
        },
        cmd: Command,
      ) =>
        runToolCommand(cmd, {
          tool: o.reactive ? 'plan_run_reactive' : 'plan_run_bt',
          args: {
            graph_id: graphId,
            agent: o.agent,
            agents: pairs(o.assign),
            client: o.client,
            model: o.model,
            variables: variables(o.var),
            timeout_ms: numberArg(o.timeoutMs),
            wait_ms: numberArg(o.waitMs),
            ...(o.reactive ? { tick_ms: numberArg(o.tickMs) } : {}),
            idempotency_key: o.idempotencyKey,
          },
          format: (r: PlanRunOutput) => [
            ...runLines(r),
            '',
            style.dim(
              `The runner launches each task as it is queued (\`agent-ledger runner\`); follow it with \`agent-ledger plan status ${r.run_id}\`.`,
            ),
          ],
        }),
    );

  plan
    .command('status')
    .description('Where a plan run stands, node by node (plan_status); without a run, the newest runs')
    .argument('[run_id]', 'the run (plan-3)')
    .option('--wait-ms <ms>', 'wait up to this long for the run to end')
    .action((runId: string | undefined, o: { waitMs?: string }, cmd: Command) =>
      runToolCommand(cmd, {
        tool: 'plan_status',
        args: { run_id: runId, wait_ms: numberArg(o.waitMs) },
        format: ({ runs }: { runs: PlanRunOutput[] }) =>
          runs.length === 0
            ? ['No plan runs yet: `agent-ledger plan run wf-<id> --agent coder` starts one.']
            : runId === undefined
              ? table(runs.map((r) => [r.run_id, r.status, r.graph_id ?? r.tree_id, progressText(r)]))
              : runLines(runs[0]),
      }),
    );

  for (const [name, tool, what] of [
    ['pause', 'plan_pause', 'Pause a plan run: nothing new starts; running agents finish'],
    ['resume', 'plan_resume', 'Resume a paused plan run'],
  ] as const)
    plan
      .command(name)
      .description(`${what} (${tool})`)
      .argument('<run_id>', 'the run (plan-3)')
      .action((runId: string, _o: unknown, cmd: Command) =>
        runToolCommand(cmd, { tool, args: { run_id: runId }, format: runLines }),
      );

  plan
    .command('cancel')
    .description("Cancel a plan run: nothing more starts and the run's running agents are stopped (plan_cancel)")
    .argument('<run_id>', 'the run (plan-3)')
    .option('--reason <text>', 'why, kept on the run')
    .action((runId: string, o: { reason?: string }, cmd: Command) =>
      runToolCommand(cmd, { tool: 'plan_cancel', args: { run_id: runId, reason: o.reason }, format: runLines }),
    );

  plan
    .command('op-cancel')
    .description('Cancel one operation: a run’s op_id, or one launch of a task leaf (op_cancel)')
    .argument('<op_id>', 'the op_id plan status shows')
    .option('--reason <text>', 'why, kept on the run')
    .action((opId: string, o: { reason?: string }, cmd: Command) =>
      runToolCommand(cmd, { tool: 'op_cancel', args: { op_id: opId, reason: o.reason }, format: runLines }),
    );

  plan
    .command('dry-run')
    .description(
      'What `plan run` with the same options would do: order, agents, the client and model each task launches with, write-scope conflicts (plan_dry_run)',
    )
    .argument('<graph_id>', "the plan graph: a workflow's plan is wf-<id>")
    .option('--agent <name>', 'the agent of every task with none of its own')
    .option('--assign <task=agent>', 'who runs one task, e.g. task-3=reviewer (repeat)', collect)
    .option('--client <client>', "every task with this client instead of its agent's: claude, codex or gemini")
    .option('--model <model>', 'the model every task runs with')
    .action(
      (graphId: string, o: { agent?: string; assign?: string[]; client?: string; model?: string }, cmd: Command) =>
        runToolCommand(cmd, {
          tool: 'plan_dry_run',
          args: { graph_id: graphId, agent: o.agent, agents: pairs(o.assign), client: o.client, model: o.model },
          format: dryRunLines,
        }),
    );

  plan
    .command('compile')
    .description('The behaviour tree a plan graph runs as (plan_compile_bt)')
    .argument('<graph_id>', "the plan graph: a workflow's plan is wf-<id>")
    .action((graphId: string, _o: unknown, cmd: Command) =>
      runToolCommand(cmd, { tool: 'plan_compile_bt', args: { graph_id: graphId }, format: (r) => resultLines(r) }),
    );

  for (const [name, approve] of [
    ['approve', true],
    ['refuse', false],
  ] as const)
    plan
      .command(name)
      .description(
        `${approve ? 'Approve' : 'Refuse'} a gate of a plan run that waits for a person (${approve ? 'the run goes on' : 'the gate fails'})`,
      )
      .argument('<run_id>', 'the run (plan-3)')
      .argument('<node_id>', 'the gate (plan status shows it waiting for a person)')
      .option('--note <text>', 'what you checked, kept on the run')
      .action((runId: string, nodeId: string, o: { note?: string }, cmd: Command) => {
        const json = cmd.optsWithGlobals<CommonOptions>().json === true;
        return withServices(cmd, { readonly: false }, async (services) => {
          const r = await services.planRuns.decideGate({ run_id: runId, node_id: nodeId, approve, note: o.note });
          if (json) printJson(r);
          else printLines(runLines(r));
        });
      });
}

function pairs(list: string[] | undefined): Record<string, string> | undefined {
  if (!list) return undefined;
  return Object.fromEntries(
    list.map((p) => {
      const i = p.indexOf('=');
      return i < 0 ? [p, ''] : [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    }),
  );
}

function variables(list: string[] | undefined): Record<string, string | number | boolean> | undefined {
  const raw = pairs(list);
  if (!raw) return undefined;
  return Object.fromEntries(
    Object.entries(raw).map(([k, v]) => [
      k,
      v === 'true' ? true : v === 'false' ? false : /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v,
    ]),
  );
}

function progressText(r: PlanRunOutput): string {
  const p = r.progress;
  return `${p.succeeded}/${p.leaves} done${p.running ? `, ${p.running} running` : ''}${p.failed ? `, ${p.failed} failed` : ''}${p.skipped ? `, ${p.skipped} skipped` : ''}`;
}

const statusStyle: Record<string, (s: string) => string> = {
  success: style.green,
  succeeded: style.green,
  failure: style.red,
  failed: style.red,
  running: style.yellow,
  cancelled: style.dim,
  skipped: style.dim,
};

function runLines(r: PlanRunOutput): string[] {
  const lines = [
    `${visible(r.run_id)} ${(statusStyle[r.status] ?? ((s: string) => s))(r.status)} — ${visible(r.graph_id ?? r.tree_id)}, ${progressText(r)}${r.reason ? ` (${visible(r.reason)})` : ''}`,
  ];
  if (r.client || r.model)
    lines.push(style.dim(`every task runs with ${visible([r.client, r.model].filter(Boolean).join(' '))}`));
  const rows = r.nodes
    .filter((n) => n.type === 'task' || n.type === 'gate' || n.type === 'tool')
    .map((n) => [
      `${'  '.repeat(Math.min(n.depth, 4))}${visible(n.id)}`,
      (statusStyle[n.status] ?? ((s: string) => s))(n.status),
      visible(n.agent ?? ''),
      visible(n.execution_id ?? ''),
      n.cost_usd === null ? '' : formatUsd(n.cost_usd),
      visible(n.reason ?? ''),
    ]);
  if (rows.length) lines.push(...table(rows));
  if (r.not_stopped?.length) lines.push(style.red(`not stopped here: ${visible(r.not_stopped.join('; '))}`));
  return lines;
}

function dryRunLines(r: PlanDryRunOutput): string[] {
  const lines = table(
    r.order.map((o) => [
      `wave ${o.wave}`,
      visible(o.id),
      visible(o.title ?? ''),
      visible(o.agent ?? ''),
      visible([o.client, o.model].filter(Boolean).join(' ')),
      visible(o.write_scope.join(', ')),
    ]),
  );
  for (const c of r.conflicts)
    lines.push(
      style.yellow(`${c.a} and ${c.b} overlap (${visible(c.overlap.join(', '))}): they run one after the other`),
    );
  for (const p of r.problems) lines.push(style.red(visible(p)));
  return lines;
}
