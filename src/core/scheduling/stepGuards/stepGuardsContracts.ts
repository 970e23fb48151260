import { z } from 'zod';
import { correlationInputWithoutGraph, opIdOutput } from '../../contracts/callOptions';

/**
 * Contract of values_explain: why each step of a plan may or may not start now, guard by guard.
 * The public implementation explains a plan against a graph of values a person declares (weights,
 * tolerances, a threshold) and impacts the caller declares; the guards in force in the ledger are
 * not declared values but the start gates every launch passes, so this explains those, keeping
 * the public answer's frame: a `decision` with `allowed`, and `violations` each with the step
 * (`node_id`, `node_label`), a message and a `hint`.
 */

export const STEPS_EXPLAINED_MAX = 500;

export const valuesExplainInput = z.strictObject({
  graph_id: z
    .string()
    .min(1)
    .max(200)
    .describe("The plan graph: a workflow's plan is wf-<id>, its steps the nodes task-<id>"),
  node_ids: z
    .array(z.string().min(1).max(200))
    .min(1)
    .max(STEPS_EXPLAINED_MAX)
    .optional()
    .describe('The steps to explain; default: every node of the graph, in id order, up to limit'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(STEPS_EXPLAINED_MAX)
    .default(100)
    .describe('Most steps explained when node_ids is absent'),
  owner: z
    .string()
    .trim()
    .min(1)
    .max(120)
    .optional()
    .describe('Who would change the plan: whether the lock and open transactions let them (may_change, may_lock)'),
  ...correlationInputWithoutGraph,
});

const guardName = z
  .enum(['task', 'status', 'dependencies', 'write_scope', 'lock', 'transaction'])
  .describe(
    'task: the step is a ledger task; status: it is open; dependencies: every step it depends on is done; write_scope: what it writes overlaps no running task; lock: another holder locks the plan; transaction: another owner has a transaction open on it',
  );

const guardOutput = z.strictObject({
  guard: guardName,
  passed: z.boolean().describe('Whether the guard lets the step start'),
  message: z.string().describe('What the guard found, in a sentence'),
});

const violationOutput = z.strictObject({
  node_id: z.string().nullable().describe('The step held, null for a guard on the whole plan'),
  node_label: z.string().nullable().describe('Its label'),
  guard: guardName,
  code: z
    .string()
    .nullable()
    .describe(
      'The refusal a start or change would get (E-TASK-BLOCKED, E-CNP-SCOPE-CONFLICT, E-GRAPH-MUTATION-LOCKED, E-TX-OPEN), null when none is coded',
    ),
  message: z.string().describe('Why it is held'),
  hint: z.string().describe('What would let it go'),
  blocked_by: z
    .array(z.string())
    .describe('What holds it: steps not done, running tasks, the lock holder, transactions'),
});

export const valuesExplainOutput = z.strictObject({
  ...opIdOutput,
  graph_id: z.string().describe('The plan graph'),
  graph_version: z.number().int().describe('Its committed version (0: a workflow plan never changed)'),
  decision: z
    .strictObject({
      allowed: z.boolean().describe('True when every step explained may start now'),
      steps: z.number().int().describe('Steps explained'),
      allowed_steps: z.number().int().describe('Of those, the ones that may start now'),
      truncated: z.boolean().describe('True when the graph has more nodes than limit'),
    })
    .describe('The verdict over the steps explained'),
  steps: z
    .array(
      z.strictObject({
        node_id: z.string().describe('The step'),
        node_label: z.string().nullable().describe('Its label'),
        task_id: z.number().int().nullable().describe('The ledger task it is, null when it is not one'),
        status: z.string().nullable().describe("The task's status"),
        allowed: z.boolean().describe('Whether it may start now'),
        guards: z.array(guardOutput).describe('Each guard in force, in the order a start checks them'),
      }),
    )
    .describe('Each step with every guard it was checked against'),
  plan: z
    .strictObject({
      lock: z
        .strictObject({
          holder: z.string().describe('Holder of the lock'),
          lock_id: z.string().describe('Id of the lock'),
          expires_at: z.number().int().nullable().describe('When it lapses (epoch ms)'),
        })
        .nullable()
        .describe('The active lock on the plan, null when none'),
      transactions: z
        .array(
          z.strictObject({
            tx_id: z.string().describe('Id of the transaction'),
            owner: z.string().nullable().describe('Its owner'),
            base_version: z.number().int().describe('Version it began on'),
            expires_at: z.number().int().describe('When it lapses unless used (epoch ms)'),
          }),
        )
        .describe('Transactions open on the plan'),
      may_change: z
        .boolean()
        .describe(
          'Whether owner may change the plan now (graph_batch_mutate, graph_patch, tx_begin): no other holder locks it',
        ),
      may_lock: z
        .boolean()
        .describe('Whether owner may lock it now: no other holder locks it, no other owner has a transaction open'),
    })
    .describe('The guards on changing the plan itself'),
  violations: z.array(violationOutput).describe('Every guard that holds a step or a change, with a hint'),
});

export type ValuesExplainInput = z.infer<typeof valuesExplainInput>;
export type ValuesExplainOutput = z.infer<typeof valuesExplainOutput>;
