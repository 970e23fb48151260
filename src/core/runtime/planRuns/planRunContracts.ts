import { z } from 'zod';
import {
  correlationInputWithoutGraph,
  idempotencyKeyInput,
  idempotencyOutput,
  WAIT_MS_MAX,
} from '../../contracts/callOptions';
import { graphDescriptorInput } from '../../coordination/plans/graphContracts';
import { compiledTreeSchema } from './behaviourTree';
import { runClients } from '../pm/queueContracts';

/**
 * Contracts of the plan tools: plan_compile_bt, plan_run_bt, plan_run_reactive, plan_status,
 * plan_pause, plan_resume, plan_cancel, op_cancel, plan_dry_run (the public implementation's
 * names and fields — `tree`, `variables`, `tick_ms`, `timeout_ms`, `run_id`, `op_id`,
 * `idempotency_key` — with the ledger's own: a plan is a workflow's graph of real tasks, and the
 * run's agents are named).
 */

const graphId = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe("A stored plan graph: a workflow's plan is wf-<id> (nodes task-<id>, edges depends_on)");

const planSource = {
  graph_id: graphId.optional(),
  graph: graphDescriptorInput.optional().describe('A plan graph given inline instead of a stored one'),
};

export const planCompileInput = z
  .strictObject({ ...planSource, ...correlationInputWithoutGraph })
  .refine((v) => (v.graph_id === undefined) !== (v.graph === undefined), {
    message: 'give graph_id or graph (one of them)',
  });

const runId = z.string().trim().min(1).max(100).describe('The plan run (plan-<n>, as plan_run_bt answered)');

const agentName = z.string().trim().min(1).max(100);

const runFields = {
  ...planSource,
  tree: compiledTreeSchema.optional().describe('A compiled tree (plan_compile_bt) instead of a graph'),
  agents: z
    .record(z.string().regex(/^task-[1-9][0-9]{0,14}$/), agentName)
    .optional()
    .describe('Who runs which task: { "task-3": "coder" }'),
  agent: agentName
    .optional()
    .describe('The agent of every task leaf with none of its own (its node, `agents`, or its assignee)'),
  client: z
    .enum(runClients)
    .optional()
    .describe('Run every task with this client instead of its agent’s own (then with that client’s default model)'),
  model: z.string().trim().min(1).max(200).optional().describe('The model every task runs with'),
  variables: z
    .record(z.string().min(1).max(200), z.union([z.string(), z.number(), z.boolean(), z.null()]))
    .optional()
    .describe('Values the guards read'),
  timeout_ms: z
    .number()
    .int()
    .min(1)
    .max(30 * 86_400_000)
    .optional()
    .describe('The whole run is cancelled (its agents stopped) when it has not ended after this long'),
  wait_ms: z
    .number()
    .int()
    .min(0)
    .max(WAIT_MS_MAX)
    .default(0)
    .describe('Wait up to this long for the run to end before answering (it goes on either way); 0 answers at once'),
  ...correlationInputWithoutGraph,
  ...idempotencyKeyInput,
};

const oneSource = (v: { graph_id?: unknown; graph?: unknown; tree?: unknown }) =>
  [v.graph_id, v.graph, v.tree].filter((x) => x !== undefined).length === 1;
const oneSourceMessage = { message: 'give graph_id, graph or tree (one of them)' };

export const planRunBtInput = z.strictObject(runFields).refine(oneSource, oneSourceMessage);

export const planRunReactiveInput = z
  .strictObject({
    ...runFields,
    tick_ms: z
      .number()
      .int()
      .min(10)
      .max(60_000)
      .default(1_000)
      .describe('How often the scheduler re-evaluates the tree while this server runs (runners tick it at each poll)'),
  })
  .refine(oneSource, oneSourceMessage);

export const planRunRefInput = z.strictObject({ run_id: runId });

export const planStatusInput = z.strictObject({
  run_id: runId.optional().describe('The run; without it, the newest runs'),
  wait_ms: z
    .number()
    .int()
    .min(0)
    .max(WAIT_MS_MAX)
    .default(0)
    .describe('Wait up to this long for the run to end (or change state) before answering'),
});

export const planCancelInput = z.strictObject({
  run_id: runId,
  reason: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .optional()
    .describe('Why, kept on the run after who cancelled it (`cancelled by <caller>: <reason>`)'),
});

export const opCancelInput = z.strictObject({
  op_id: z.string().trim().min(1).max(200).describe('A plan run’s op_id, or the op_id of one launch of a task leaf'),
  reason: z.string().trim().min(1).max(500).optional().describe('Why, kept on the run'),
});

export const planDryRunInput = z
  .strictObject({
    ...planSource,
    tree: runFields.tree,
    agents: runFields.agents,
    agent: runFields.agent,
    client: runFields.client,
    model: runFields.model,
  })
  .refine(oneSource, oneSourceMessage);

const nodeStatus = z.enum(['idle', 'waiting', 'ready', 'running', 'success', 'failure', 'skipped', 'cancelled']);

export const planNodeOutput = z.strictObject({
  id: z.string().describe('Node of the tree'),
  type: z.string().describe('sequence, selector, parallel, retry, timeout, guard, task, gate or tool'),
  depth: z.number().int().describe('Nesting depth (0: the root)'),
  status: nodeStatus.describe('Where it stands'),
  reason: z.string().nullable().describe('Why, in one line'),
  task_id: z.string().nullable().describe('Task leaf: its task'),
  task_status: z.string().nullable().describe('Task leaf: its task’s status now'),
  agent: z.string().nullable().describe('Task leaf: the agent that runs it'),
  execution_id: z.string().nullable().describe('Task leaf: the run of its agent going on now'),
  attempts: z.number().int().nullable().describe('Retry: the attempt going on; task leaf: launches by this run'),
  op_id: z.string().nullable().describe('Task leaf: the op_id of its last launch (op_cancel takes it)'),
  cost_usd: z.number().nullable().describe('Task leaf: what its agents’ runs cost so far'),
  decided_by: z
    .string()
    .nullable()
    .describe('Gate leaf: who approved or refused it (`person:<name>`), null while undecided'),
});

export const planProgressOutput = z.strictObject({
  leaves: z.number().int().describe('Task, gate and tool leaves'),
  succeeded: z.number().int(),
  failed: z.number().int(),
  running: z.number().int(),
  waiting: z.number().int().describe('Waiting for dependencies, a person, or a resume'),
  skipped: z.number().int().describe('Skipped or cancelled'),
  percent: z.number().describe('Settled leaves out of all, 0–100'),
});

export const planRunOutput = z.strictObject({
  run_id: z.string().describe('The run (plan-<n>)'),
  op_id: z.string().describe('The run’s operation (op_cancel takes it)'),
  graph_id: z.string().nullable().describe('The plan graph it runs, null for a tree given inline'),
  tree_id: z.string(),
  mode: z.enum(['bt', 'reactive']),
  status: z.enum(['running', 'paused', 'succeeded', 'failed', 'cancelled']),
  reason: z
    .string()
    .nullable()
    .describe(
      'Why it ended, or who paused or cancelled it: `paused by person:ann` (a person at a terminal, the editor, the web board), `cancelled by agent:7: <reason>`',
    ),
  client: z.string().nullable().describe('The client every task runs with, null: each agent’s own'),
  model: z.string().nullable().describe('The model every task runs with, null: the client’s default'),
  tick_ms: z.number().int().nullable(),
  ticks: z.number().int().describe('Ticks taken so far'),
  created_by: z
    .string()
    .nullable()
    .describe('Who started it: agent:<id>, person:<name> (the editor, the web board) or the CLI’s connection'),
  created_at: z.string(),
  updated_at: z.string(),
  ended_at: z.string().nullable(),
  progress: planProgressOutput,
  nodes: z.array(planNodeOutput).describe('Every node of the tree, parents first'),
  not_stopped: z
    .array(z.string())
    .optional()
    .describe('Agents this call could not stop here (run by a runner on another machine or folder)'),
});

export const planRunResult = z.strictObject({ ...planRunOutput.shape, ...idempotencyOutput });

export const planStatusOutput = z.strictObject({
  runs: z.array(planRunOutput).describe('The run asked for, or the newest runs'),
});

export const planCompileOutput = z.strictObject({
  tree: compiledTreeSchema.describe('The tree, every node named'),
  leaves: z.number().int(),
  nodes: z.number().int(),
});

export const planDryRunOutput = z.strictObject({
  tree_id: z.string(),
  order: z
    .array(
      z.strictObject({
        wave: z.number().int().describe('Leaves of one wave can run at once, if nothing fails'),
        id: z.string(),
        type: z.string(),
        task_id: z.string().nullable(),
        title: z.string().nullable(),
        agent: z.string().nullable(),
        client: z
          .string()
          .nullable()
          .describe(
            'What the runner would start for it: claude, codex, gemini or the agent’s launch command; null when the run would launch nothing (no agent, the task done or queued already)',
          ),
        model: z.string().nullable().describe('The model it would run with, null for the client’s default'),
        write_scope: z.array(z.string()).describe('What the task declares it writes'),
        after: z.array(z.string()),
      }),
    )
    .describe('What would run, in order'),
  conflicts: z
    .array(
      z.strictObject({
        a: z.string(),
        b: z.string(),
        overlap: z.array(z.string()).describe('The patterns of each that overlap'),
      }),
    )
    .describe('Pairs of tasks of one wave whose write scopes overlap: the runner runs them one after the other'),
  problems: z.array(z.string()).describe('What would stop the run: tasks that do not exist, leaves with no agent…'),
});

export const gateDecisionInput = z.strictObject({
  run_id: runId,
  node_id: z.string().trim().min(1).max(200).describe('The gate leaf'),
  approve: z.boolean().describe('true approves; false refuses (the gate fails)'),
  note: z.string().trim().min(1).max(500).optional(),
});

export type PlanRunBtInput = z.infer<typeof planRunBtInput>;
export type PlanRunReactiveInput = z.infer<typeof planRunReactiveInput>;
export type PlanRunOutput = z.infer<typeof planRunOutput>;
export type PlanNodeOutput = z.infer<typeof planNodeOutput>;
export type PlanDryRunInput = z.infer<typeof planDryRunInput>;
export type PlanDryRunOutput = z.infer<typeof planDryRunOutput>;
export type PlanCompileInput = z.infer<typeof planCompileInput>;
