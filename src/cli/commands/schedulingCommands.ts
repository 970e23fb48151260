import type { ToolGroup } from '../toolGroups';

/** Stigmergy: marks agents leave on the areas they change, fading with time. */
export const stigmergyGroup: ToolGroup = {
  name: 'stig',
  description: 'Stigmergy: marks agents leave on the files and scopes they change; they fade and vanish when their task ends',
  commands: [
    { name: 'mark', tool: 'stig_mark', args: ['node_id', 'type', 'intensity'], summary: 'Leave a mark on an area (a path, glob or task:N)' },
    { name: 'batch', tool: 'stig_batch', args: ['entries'], summary: 'Leave several marks at once (all or none)' },
    { name: 'decay', tool: 'stig_decay', args: ['half_life_ms'], summary: 'Fade every mark by the given half-life' },
    { name: 'snapshot', tool: 'stig_snapshot', summary: 'Where agents are working: the strongest areas and their marks' },
  ],
};

/** Contract-net: tasks put out for bids and awarded. */
export const contractNetGroup: ToolGroup = {
  name: 'cnp',
  description: 'Contract-net: put a task out for bids and award it to the best-fitting, least busy agent',
  commands: [
    { name: 'announce', tool: 'cnp_announce', args: ['task_id'], summary: 'Put a task out for bids (and award it unless --no-award)' },
    { name: 'bid', tool: 'cnp_bid', args: ['call_id', 'agent_id', 'cost'], summary: 'Bid on an open call for an agent' },
    { name: 'award', tool: 'cnp_award', args: ['call_id', 'agent_id'], summary: 'Award an open call (to the best bid, or to the agent named)' },
    { name: 'refresh-bounds', tool: 'cnp_refresh_bounds', args: ['call_id'], summary: 'Change the bounds of an open call and refresh its automatic bids' },
    { name: 'telemetry', tool: 'cnp_watcher_telemetry', summary: 'Counters of the watcher that refreshes open calls' },
  ],
};

/** The knowledge graph: facts as triples, and plans suggested from them. */
export const knowledgeGroup: ToolGroup = {
  name: 'kg',
  description: 'Knowledge graph: facts as subject–predicate–object triples, and plan fragments suggested from what worked before',
  commands: [
    { name: 'insert', tool: 'kg_insert', args: ['triples'], summary: 'Add or update facts' },
    { name: 'query', tool: 'kg_query', summary: 'Facts matching a subject, predicate, object or source' },
    { name: 'export', tool: 'kg_export', summary: 'Every fact, a page at a time' },
    { name: 'suggest-plan', tool: 'kg_suggest_plan', args: ['goal'], summary: 'Suggest a plan fragment for a goal from the facts' },
  ],
};
