import type { FamilyInfo } from '../../toolDefinition';

/** How an agent uses the child runtimes (part of the family's instructions). */
const childInstructions =
  'Child runtimes: child_create starts a program, child_spawn_codex / child_batch_create start Codex on a prompt; child_send writes to a child, child_logs reads its output as it is written (pass next_seq back), child_status / child_list show them, child_kill stops one; child_attach, child_set_role and child_set_limits adjust one.';

/** What the family's instructions say about scheduling. */
const schedulingInstructions =
  ' Scheduling: stig_mark / stig_batch mark the files and scopes you are changing, stig_snapshot shows where agents are working (marks fade and vanish when their task ends); cnp_announce puts a task out for bids and awards it to the best-fitting, least busy agent without overlapping a running task’s write scope (cnp_bid, cnp_award, cnp_refresh_bounds, cnp_watcher_telemetry); kg_insert / kg_query / kg_export hold facts and kg_suggest_plan suggests plan fragments from what worked before.';

/**
 * Coordination of several agents: the blackboard, plan graphs, the sc:// registry and the event bus.
 * What the server and the extension know of the family without loading its tools (families.ts).
 */
export const orchestratorInfo: FamilyInfo = {
  name: 'orchestrator',
  description:
    'Orchestration: blackboard, plan graphs with diff/patch and locks, resources watch, event bus, idempotency, child runtimes, stigmergy, contract-net, knowledge graph',
  enabledByDefault: false,
  instructions:
    "Orchestrator: the blackboard is shared by every agent of the workspace: bb_set / bb_batch_set write entries, bb_get / bb_query read them, bb_delete removes one, bb_watch waits for changes after a version (pass next_version back). A workflow's plan is the graph wf-<id> (tasks and depends_on edges): graph_batch_mutate and graph_patch change it (expected_version / base_version guard against lost updates, graph_lock keeps other writers out), graph_diff compares versions. resources_watch and events_subscribe wait for new events (pass next_seq back) instead of polling." +
    ' ' +
    childInstructions +
    schedulingInstructions,
  // Finer switches: a feature on alone exposes the tools that name it (`feature:` on the tool).
  features: [
    {
      name: 'resources',
      toggle: 'enableResources',
      description:
        'the sc:// registry: resources_list, resources_read, resources_watch over plan graphs and their versions, runs, child logs, blackboard namespaces',
    },
    {
      name: 'events-bus',
      toggle: 'enableEventsBus',
      description: 'events_subscribe: the events log filtered by kind, level and correlation ids, with waits',
    },
    {
      name: 'blackboard',
      toggle: 'enableBlackboard',
      description: 'the shared blackboard: bb_set, bb_batch_set, bb_get, bb_query, bb_delete, bb_watch',
    },
    { name: 'bulk', toggle: 'enableBulk', description: 'atomic batches: graph_batch_mutate, bb_batch_set' },
    {
      name: 'diff-patch',
      toggle: 'enableDiffPatch',
      description: 'graph_diff and graph_patch (RFC 6902 patches between plan-graph versions)',
    },
    {
      name: 'locks',
      toggle: 'enableLocks',
      description: 'graph_lock and graph_unlock: a holder with a lifetime protects a plan graph from other writers',
    },
    {
      // No tool names it: it decides whether idempotency_key is remembered (features.ts).
      name: 'idempotency',
      toggle: 'enableIdempotency',
      description:
        'idempotency_key is remembered: a retried call returns the first answer without doing the change twice',
    },
  ],
};
