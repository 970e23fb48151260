import { z } from 'zod';
import { pheromoneBounds } from '../stigmergy/stigmergyContracts';

/**
 * Inputs and results of the contract-net tools: `cnp_announce` (put a task out for bids and, by
 * default, award it at once), `cnp_bid` and `cnp_award` (an agent bids on an open call; the call
 * is awarded later), `cnp_refresh_bounds` and `cnp_watcher_telemetry`. Seed names are snake_case;
 * our additions (`writeScope`, `award`, `allowOverlap`, `conflicts`, `notAwardedReason`) are
 * camelCase.
 */

const id = (what: string) => z.string().trim().min(1).max(200).describe(what);
const correlationId = (what: string) =>
  z.string().trim().min(1).max(200).optional().describe(`${what}, carried by the call and its events`);
const timestamp = (what: string) => z.number().int().nonnegative().describe(`${what} (milliseconds since the epoch)`);
const metadata = z.record(z.string(), z.unknown());

const heuristicsInput = z.strictObject({
  prefer_agents: z
    .array(z.string().trim().min(1).max(200))
    .max(64)
    .optional()
    .describe('Agents whose bids get the preference bonus'),
  agent_bias: z
    .record(z.string(), z.number())
    .optional()
    .describe('Per-agent amount taken off the cost (positive favours the agent)'),
  busy_penalty: z
    .number()
    .min(0)
    .max(100)
    .optional()
    .describe(
      'Cost added per task an agent is already running, scaled by the pressure on the task’s areas (default 1)',
    ),
  preference_bonus: z.number().min(0).max(100).optional().describe('Cost taken off for preferred agents (default 1)'),
});

/** One bid made with the announcement (`manual_bids[]`). */
export const cnpManualBid = z.strictObject({
  agent_id: id('Agent making the bid (its definition name, e.g. "coder")'),
  cost: z.number().nonnegative().describe('Proposed cost; the lowest effective cost wins'),
  metadata: metadata.optional().describe('Anything the agent wants to attach to its bid'),
});

/** `cnp_announce`: put a task out for bids (and award it at once unless `award` is false). */
export const cnpAnnounceInput = z.strictObject({
  task_id: id('Task put out for bids, e.g. "task-12"'),
  payload: z.unknown().optional().describe('Free data describing the work, stored with the call'),
  tags: z
    .array(z.string().trim().min(1).max(100))
    .max(32)
    .default([])
    .describe('Skills the task needs; agents with these tags bid lower'),
  metadata: metadata.optional().describe('Free metadata stored with the call'),
  deadline_ms: z
    .number()
    .int()
    .positive()
    .max(86_400_000)
    .optional()
    .describe('How long after the announcement manual bids are accepted, in milliseconds'),
  auto_bid: z.boolean().optional().describe('Let every agent whose scope fits bid automatically (default true)'),
  heuristics: heuristicsInput.optional().describe('How bids are compared'),
  manual_bids: z
    .array(cnpManualBid)
    .max(128)
    .optional()
    .describe('Bids made together with the announcement; they replace automatic ones'),
  idempotency_key: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Retrying with the same key returns the first answer instead of announcing twice'),
  run_id: correlationId('Run id'),
  op_id: correlationId('Operation id'),
  job_id: correlationId('Job id'),
  graph_id: correlationId('Plan graph id'),
  node_id: correlationId('Plan graph node id'),
  child_id: correlationId('Child runtime id'),
  writeScope: z
    .array(z.string().trim().min(1).max(500))
    .max(100)
    .optional()
    .describe(
      'Paths or globs the task will write (default: the task’s areas); used to keep two running tasks off the same files',
    ),
  award: z
    .boolean()
    .default(true)
    .describe('Award at once to the best bid (default); false leaves the call open for cnp_bid until cnp_award'),
  allowOverlap: z
    .boolean()
    .default(false)
    .describe('Award even if the write scope may overlap a running task’s (a person’s explicit override)'),
});

/** `cnp_bid`: an agent bids on an open call. */
export const cnpBidInput = z.strictObject({
  call_id: id('Call to bid on'),
  agent_id: id('Agent making the bid'),
  cost: z.number().nonnegative().describe('Proposed cost; the lowest effective cost wins'),
  metadata: metadata.optional().describe('Anything the agent wants to attach to its bid'),
});

/** `cnp_award`: award an open call to its best eligible bid, or to a named bidder. */
export const cnpAwardInput = z.strictObject({
  call_id: id('Call to award'),
  agent_id: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe('Award to this agent (it must have bid); default: the best eligible bid'),
  allowOverlap: z
    .boolean()
    .default(false)
    .describe('Award even if the write scope may overlap a running task’s (a person’s explicit override)'),
});

/** `cnp_refresh_bounds`: new pressure bounds for an open call. */
export const cnpRefreshBoundsInput = z.strictObject({
  call_id: id('Open call to refresh'),
  bounds: pheromoneBounds.optional().describe('New bounds (default: the current pressure on the task’s areas)'),
  refresh_auto_bids: z
    .boolean()
    .optional()
    .describe('Reissue the automatic bids with the new pressure (default true); manual bids are kept'),
  include_new_agents: z
    .boolean()
    .optional()
    .describe('Let agents that have not bid yet get an automatic bid (default true)'),
});

/** `cnp_watcher_telemetry` takes nothing. */
export const cnpWatcherTelemetryInput = z.strictObject({});

const bid = z.strictObject({
  agent_id: z.string().describe('Bidding agent'),
  cost: z.number().nonnegative().describe('Proposed cost'),
  submitted_at: timestamp('When the bid was made'),
  kind: z
    .enum(['manual', 'heuristic'])
    .describe('manual: made by an agent or a person; heuristic: computed from the agent’s definition'),
  metadata: metadata.describe(
    'For automatic bids: reason ("auto" at announcement, "auto_refresh" after a refresh), pheromone_pressure, scope_fit, tag_fit',
  ),
});

const correlation = z
  .strictObject({
    run_id: z.string().nullable().describe('Run id'),
    op_id: z.string().nullable().describe('Operation id'),
    job_id: z.string().nullable().describe('Job id'),
    graph_id: z.string().nullable().describe('Plan graph id'),
    node_id: z.string().nullable().describe('Plan graph node id'),
    child_id: z.string().nullable().describe('Child runtime id'),
  })
  .nullable()
  .describe('Correlation ids (null when none was given)');

const conflict = z.strictObject({
  agentId: z.string().describe('Agent whose bid collides'),
  runningTaskId: z.string().describe('Running task it would collide with'),
  runningAgentId: z.string().nullable().describe('Agent running that task'),
  pairs: z
    .array(
      z.strictObject({
        left: z.string().describe('Pattern of this call'),
        right: z.string().describe('Pattern of the running task'),
      }),
    )
    .describe('Patterns that may match the same files'),
});

/** A call as every contract-net tool shows it. */
export const cnpCallSnapshot = z.strictObject({
  call_id: z.string().describe('Call id'),
  task_id: z.string().describe('Task put out for bids'),
  payload: z.unknown().describe('Data given at announcement'),
  tags: z.array(z.string()).describe('Skills the task needs (lower case)'),
  metadata: metadata.describe('Metadata given at announcement'),
  deadline_ms: z
    .number()
    .int()
    .positive()
    .nullable()
    .describe('Bidding window after the announcement, in milliseconds'),
  heuristics: z
    .strictObject({
      prefer_agents: z.array(z.string()).describe('Preferred agents'),
      agent_bias: z.record(z.string(), z.number()).describe('Per-agent cost reduction'),
      busy_penalty: z.number().nonnegative().describe('Cost per running task of the agent, times pheromone_pressure'),
      preference_bonus: z.number().nonnegative().describe('Cost reduction of preferred agents'),
    })
    .describe('How bids are compared'),
  pheromone_bounds: pheromoneBounds.nullable().describe('Pressure bounds the automatic bids were computed with'),
  auto_bid_enabled: z.boolean().describe('Whether agents bid automatically on this call'),
  status: z
    .enum(['open', 'awarded', 'completed'])
    .describe('open: taking bids; awarded: assigned; completed: the task ended'),
  announced_at: timestamp('When the call was announced'),
  awarded_agent_id: z.string().nullable().describe('Agent the task was awarded to'),
  awarded_at: z.number().int().nonnegative().nullable().describe('When it was awarded (milliseconds since the epoch)'),
  bids: z.array(bid).describe('Bids in the order they were made'),
  correlation,
  refreshed_agents: z
    .array(z.string())
    .describe('Agents whose automatic bids the last announcement or refresh reissued'),
  auto_bid_refreshed: z.boolean().describe('Whether that reissued any automatic bid'),
  writeScope: z.array(z.string()).describe('Paths or globs the task will write'),
});

/** `cnp_announce`: the call, the award if made, and why not otherwise. */
export const cnpAnnounceResult = cnpCallSnapshot.extend({
  awarded_cost: z.number().nonnegative().nullable().describe('Cost the winner bid'),
  awarded_effective_cost: z.number().nullable().describe('Cost after load, pressure, preference and bias'),
  idempotent: z
    .boolean()
    .describe('True when this answer is the replay of an earlier call with the same idempotency_key'),
  idempotency_key: z.string().nullable().describe('The key given, if any'),
  notAwardedReason: z
    .enum(['deferred', 'no_bids', 'scope_conflict'])
    .nullable()
    .describe(
      'Why the call is still open: award was false, nobody could bid, or every bid collides with a running task',
    ),
  conflicts: z.array(conflict).describe('Running tasks the bids collide with'),
});

/** `cnp_bid`: the call with the new bid. */
export const cnpBidResult = cnpCallSnapshot;

/** `cnp_award`: the decision (a call that cannot be awarded is an error). */
export const cnpAwardResult = z.strictObject({
  call_id: z.string().describe('Call awarded'),
  agent_id: z.string().describe('Agent the task is assigned to'),
  cost: z.number().nonnegative().describe('Cost the agent bid'),
  effective_cost: z.number().describe('Cost after load, pressure, preference and bias'),
  awarded_at: timestamp('When it was awarded'),
  bids: z.array(bid).describe('Every bid of the call'),
  conflicts: z.array(conflict).describe('Collisions the award overrode (allowOverlap)'),
});

/** `cnp_refresh_bounds`: what was refreshed, with which options. */
export const cnpRefreshBoundsResult = z.strictObject({
  call_id: z.string().describe('Call refreshed'),
  auto_bid_refreshed: z.boolean().describe('Whether automatic bids were reissued'),
  refreshed_agents: z.array(z.string()).describe('Agents whose automatic bids were reissued'),
  pheromone_bounds: pheromoneBounds.nullable().describe('Bounds now stored on the call'),
  refresh: z
    .strictObject({
      requested: z.boolean().describe('refresh_auto_bids as applied'),
      include_new_agents: z.boolean().describe('include_new_agents as applied'),
    })
    .describe('The options used'),
});

const watcherSnapshot = z.strictObject({
  reason: z.enum(['initial', 'flush', 'detach']).describe('What caused the emission'),
  received_updates: z.number().int().nonnegative().describe('Field changes seen'),
  coalesced_updates: z.number().int().nonnegative().describe('Changes folded into an already scheduled refresh'),
  skipped_refreshes: z.number().int().nonnegative().describe('Refreshes skipped because the bounds had not changed'),
  applied_refreshes: z.number().int().nonnegative().describe('Refreshes applied to open calls'),
  flushes: z.number().int().nonnegative().describe('Flushes that found new bounds'),
  last_bounds: pheromoneBounds.nullable().describe('Bounds of the last refresh'),
});

/** `cnp_watcher_telemetry`: the watcher's counters. */
export const cnpWatcherTelemetryResult = z.strictObject({
  telemetry_enabled: z.boolean().describe('Whether a watcher keeps open calls in step with the field'),
  emissions: z.number().int().nonnegative().describe('Telemetry emissions since the watcher started'),
  last_emitted_at_ms: z
    .number()
    .int()
    .nonnegative()
    .nullable()
    .describe('Last emission (milliseconds since the epoch)'),
  last_emitted_at_iso: z.string().nullable().describe('Last emission as an ISO 8601 time'),
  last_snapshot: watcherSnapshot.nullable().describe('Counters of the last emission'),
});

export type CnpAnnounceInput = z.infer<typeof cnpAnnounceInput>;
export type CnpBidInput = z.infer<typeof cnpBidInput>;
export type CnpAwardInput = z.infer<typeof cnpAwardInput>;
export type CnpRefreshBoundsInput = z.infer<typeof cnpRefreshBoundsInput>;
export type CnpAnnounceResult = z.infer<typeof cnpAnnounceResult>;
export type CnpAwardResult = z.infer<typeof cnpAwardResult>;
export type CnpRefreshBoundsResult = z.infer<typeof cnpRefreshBoundsResult>;
export type CnpWatcherTelemetryResult = z.infer<typeof cnpWatcherTelemetryResult>;
