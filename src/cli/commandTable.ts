import type { Command } from 'commander';
import type { ToolGroup } from './toolGroups';

/**
 * A top-level command of `agent-ledger`. `--help` lists it from this table alone; its options,
 * subcommands and actions — and the modules they import — load only when the command line names
 * it, so `mcp serve` builds one command, not every command and tool group (docs/performance.md).
 */
export interface TopCommand {
  name: string;
  /** One line for `agent-ledger --help`. */
  description: string;
  /** The rest of the command, added to `cmd` (already named and described). */
  load(): Promise<(cmd: Command) => void>;
}

/** A group of orchestrator tools (`bb set`, `graph diff`…): its subcommands read their tools' contracts. */
function toolGroup(pick: () => Promise<ToolGroup>): TopCommand['load'] {
  return async () => {
    const [{ toolGroupCommands }, group] = await Promise.all([import('./toolGroups.js'), pick()]);
    return toolGroupCommands(group);
  };
}

/** Every top-level command, in the order `--help` lists them. */
export const topCommands: readonly TopCommand[] = [
  {
    name: 'mcp',
    description: 'The MCP server',
    load: async () => (await import('./commands/mcpServe.js')).registerMcpCommands,
  },
  {
    name: 'workflow',
    description: 'Workflows: containers of tracked tasks',
    load: async () => (await import('./commands/workflowCommands.js')).registerWorkflowCommands,
  },
  {
    name: 'task',
    description: 'Tasks: the backlog, over the same tasks the tracking tools record',
    load: async () => (await import('./commands/taskCommands.js')).registerTaskCommands,
  },
  {
    name: 'agent',
    description: 'Agent definitions (.agent-ledger/agents/<name>.yaml or .md)',
    load: async () => (await import('./commands/agentCommands.js')).registerAgentCommands,
  },
  {
    name: 'worker',
    description: 'Workers: a Git worktree per task and the command that launches an agent in it',
    load: async () => (await import('./commands/workerCommands.js')).registerWorkerCommands,
  },
  {
    name: 'session',
    description: 'Sessions: one run of an agent on a task',
    load: async () => (await import('./commands/sessionCommands.js')).registerSessionCommands,
  },
  {
    name: 'memory',
    description: 'Memory Bank: project decisions in .agent-ledger/memory/<category>/<id>.md',
    load: async () => (await import('./commands/memoryCommands.js')).registerMemoryCommands,
  },
  {
    name: 'pipeline',
    description: 'Pipelines: phases with reviews and human checkpoints, driven by the engine',
    load: async () => (await import('./commands/pipelineCommands.js')).registerPipelineCommands,
  },
  {
    name: 'project',
    description: 'Projects of agents that run by themselves: a folder of the workspace with agents assigned',
    load: async () => (await import('./commands/projectCommands.js')).registerProjectCommands,
  },
  {
    name: 'watch',
    description:
      'Follow the ledger: one line per event as it happens (a task queued, started, completed; a run launched or ended with its cost; a checkpoint waiting for a person; a handoff), from any process or machine',
    load: async () => (await import('./commands/watchCommand.js')).registerWatchCommand,
  },
  {
    name: 'ui',
    description:
      'The Board, task details with their exact diffs, pipeline checkpoints (Approve/Reject), the plan graph, runs, agents and the Memory Bank in your browser, live: loopback only, with a token in the address it prints',
    load: async () => (await import('./commands/uiCommand.js')).registerUiCommand,
  },
  {
    name: 'token',
    description:
      'Bearer tokens of `mcp serve --http`: an agent (one agent, its projects), a person (decides at checkpoints) or an admin',
    load: async () => (await import('./commands/tokenCommands.js')).registerTokenCommands,
  },
  {
    name: 'db',
    description:
      'The ledger store: check and repair its files, create or upgrade its schema, copy it between the embedded store and PostgreSQL',
    load: async () => (await import('./commands/dbCommands.js')).registerDbCommands,
  },
  {
    name: 'runner',
    description:
      'Launch agents by themselves: every few seconds, start the client of each (agent, project) with an in-progress task assigned (claude, codex, gemini or the agent’s launch command) in the task’s worktree, wired to this ledger. A task whose dependencies are not done, or whose write scope overlaps a running task’s, waits (the output says why). Ctrl-C stops the runner and its agents',
    load: async () => (await import('./commands/runnerCommands.js')).registerRunnerCommands,
  },
  {
    name: 'run',
    description:
      'Runs of agents (execution logs): list them, show how one ended and what it cost, read or follow its output',
    load: async () => (await import('./commands/runCommands.js')).registerRunCommands,
  },
  {
    name: 'plan',
    description:
      "Plan runs: run a workflow's plan with agents (each task queued when its dependencies are done, launched by the runner), follow, pause, resume, cancel, approve its gates",
    load: async () => (await import('./commands/planCommands.js')).registerPlanCommands,
  },
  // The orchestrator family's tools, one group per concept, options read from each tool's schema.
  {
    name: 'bb',
    description: 'Blackboard: key → JSON value entries shared by every agent of the workspace',
    load: toolGroup(async () => (await import('./commands/coordinationCommands.js')).blackboardGroup),
  },
  {
    name: 'graph',
    description:
      "Plan graphs: a workflow's tasks and depends_on edges (graph wf-<id>), versioned, with diff, patch and locks",
    load: toolGroup(async () => (await import('./commands/coordinationCommands.js')).graphGroup),
  },
  {
    name: 'resources',
    description:
      'The sc:// registry: graphs and their versions, runs and their events, child logs, snapshots, blackboard namespaces',
    load: toolGroup(async () => (await import('./commands/coordinationCommands.js')).resourcesGroup),
  },
  {
    name: 'events',
    description: 'The event bus: every change of the ledger, with its correlation ids',
    load: toolGroup(async () => (await import('./commands/coordinationCommands.js')).eventsGroup),
  },
  {
    name: 'stig',
    description:
      'Stigmergy: marks agents leave on the files and scopes they change; they fade and vanish when their task ends',
    load: toolGroup(async () => (await import('./commands/schedulingCommands.js')).stigmergyGroup),
  },
  {
    name: 'cnp',
    description: 'Contract-net: put a task out for bids and award it to the best-fitting, least busy agent',
    load: toolGroup(async () => (await import('./commands/schedulingCommands.js')).contractNetGroup),
  },
  {
    name: 'kg',
    description:
      'Knowledge graph: facts as subject–predicate–object triples, and plan fragments suggested from what worked before',
    load: toolGroup(async () => (await import('./commands/schedulingCommands.js')).knowledgeGroup),
  },
  {
    name: 'child',
    description:
      'Child runtimes: programs started under limits, with their logs recorded; listed and stopped from any process of this machine',
    load: toolGroup(async () => (await import('./commands/childCommands.js')).childGroup),
  },
];
