import type { FamilyInfo } from '../../toolDefinition';

/**
 * Coordination of several agents: the blackboard, plan graphs, the sc:// registry and the event bus.
 * What the server and the extension know of the family without loading its tools (families.ts).
 */
export const orchestratorInfo: FamilyInfo = {
  name: 'orchestrator',
  description:
    'Orchestration: blackboard, plan graphs with diff/patch and locks, plan runs (behaviour trees launching agents), resources watch, event bus, idempotency, child runtimes, stigmergy, contract-net, knowledge graph',
  enabledByDefault: false,
  instructions:
    "Orchestrator (several agents at once): bb_set / bb_get / bb_query share state on the blackboard; a workflow's plan is the graph wf-<id>, changed with graph_batch_mutate or graph_patch (pass expected_version); child_create / child_spawn_codex start helpers, child_send and child_logs talk to them; stig_mark the files you change, cnp_announce puts a task out for bids, kg_suggest_plan reuses what worked; plan_run_bt runs a workflow's plan with agents (plan_status, plan_pause, plan_cancel follow and steer it). To wait, call bb_watch, events_subscribe, resources_watch or child_logs (they return the moment something comes; pass next_seq / next_version back) instead of polling.",
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
      name: 'tx',
      toggle: 'enableTx',
      description:
        'transactions on a plan graph: tx_begin, tx_apply, tx_commit (optimistic: refused when the graph moved and the changes do not commute), tx_rollback',
    },
    {
      name: 'values-explain',
      toggle: 'enableValuesExplain',
      description:
        'values_explain: why each step of a plan may start now or not (status, dependencies, write-scope overlap), and who may change or lock the plan',
    },
    {
      name: 'plan-lifecycle',
      toggle: 'enablePlanLifecycle',
      description: 'plan_status, plan_pause and plan_resume: follow, pause and resume a running plan',
    },
    {
      name: 'cancellation',
      toggle: 'enableCancellation',
      description:
        'plan_cancel and op_cancel: cancel a plan run (its running agents stopped) or one operation by op_id',
    },
    {
      name: 'child-ops-fine',
      toggle: 'enableChildOpsFine',
      description: 'child_spawn_codex, child_attach, child_set_role, child_set_limits: fine control of child runtimes',
    },
    {
      name: 'assist',
      toggle: 'enableAssist',
      description: 'kg_suggest_plan: plan fragments from the knowledge graph',
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
