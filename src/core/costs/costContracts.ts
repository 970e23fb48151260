import { z } from 'zod';

/**
 * What agent runs cost, summed from their execution logs (the runner records the tokens and
 * cost each client prints). The same totals serve a task, a workflow, an agent and a project.
 */
export const costTotalsOutput = z.object({
  runs: z.number().int().describe('Execution logs counted (every run, running ones included)'),
  running: z.number().int().describe('Of those, runs still going (their cost is not known yet)'),
  costUsd: z.number().describe('Sum of the cost in US dollars the clients reported (rounded to a millionth)'),
  unpricedRuns: z.number().int().describe('Finished runs whose client reported no cost: the sum leaves them out'),
  inputTokens: z.number().int().describe('Sum of input tokens reported'),
  outputTokens: z.number().int().describe('Sum of output tokens reported'),
  cacheReadTokens: z.number().int().describe('Sum of prompt-cache tokens read, as reported'),
  durationSeconds: z.number().describe('Sum of the finished runs’ wall-clock durations'),
});

export const agentCostOutput = costTotalsOutput.extend({ agent: z.string().describe('Agent name') });
export const taskCostRowOutput = costTotalsOutput.extend({ taskId: z.string().describe('Task key, e.g. "task-5"') });
export const projectCostOutput = costTotalsOutput.extend({
  projectId: z.string().nullable().describe('Project key ("prj-2"), null for runs outside any project'),
});

/** A task's cost (task_get's `cost`): its own runs, per agent, and with its sub-tasks' runs. */
export const taskCostOutput = costTotalsOutput.extend({
  byAgent: z.array(agentCostOutput).describe('The same runs per agent, most expensive first'),
  withSubtasks: costTotalsOutput
    .nullable()
    .describe('Its runs and every sub-task’s (any depth); null when it has no sub-tasks'),
});

/** A workflow's cost: every run on its tasks, per agent and per task. */
export const workflowCostOutput = costTotalsOutput.extend({
  workflowId: z.string().describe('Workflow key, e.g. "wf-2"'),
  byAgent: z.array(agentCostOutput).describe('Per agent, most expensive first'),
  byTask: z.array(taskCostRowOutput).describe('Per task that has runs, most expensive first'),
});

/** An agent's cost: every run it made, per project. */
export const agentCostRollupOutput = costTotalsOutput.extend({
  agent: z.string(),
  byProject: z.array(projectCostOutput).describe('Per project, most expensive first'),
});

export type CostTotals = z.infer<typeof costTotalsOutput>;
export type AgentCost = z.infer<typeof agentCostOutput>;
export type TaskCost = z.infer<typeof taskCostOutput>;
export type WorkflowCost = z.infer<typeof workflowCostOutput>;
export type AgentCostRollup = z.infer<typeof agentCostRollupOutput>;
