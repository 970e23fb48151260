import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerError } from '../../../../../src/core/errors';
import {
  announceCall,
  awardCall,
  completeCall,
  placeBid,
  rankBids,
  refreshCallBounds,
} from '../../../../../src/core/scheduling/contractNet/contractNet';
import {
  agentsFromDefinitions,
  computePheromonePressure,
  heuristicCost,
  scopeFit,
} from '../../../../../src/core/scheduling/contractNet/contractNetModel';
import type { CnpAgent } from '../../../../../src/core/scheduling/contractNet/contractNetModel';
import {
  announceResult,
  awardResult,
  refreshBoundsResult,
} from '../../../../../src/core/scheduling/contractNet/contractNetResults';
import {
  cnpAnnounceResult,
  cnpAwardResult,
  cnpBidResult,
  cnpRefreshBoundsResult,
} from '../../../../../src/core/scheduling/contractNet/contractNetContracts';

const agent = (id: string, over: Partial<CnpAgent> = {}): CnpAgent => ({
  id,
  write: ['**'],
  exclude: [],
  tags: [],
  baseCost: 100,
  load: 0,
  ...over,
});
const coded = (fn: () => unknown): string => {
  try {
    fn();
    return 'ok';
  } catch (e) {
    return LedgerError.is(e) ? `${e.code}/${String(e.data?.error ?? '')}` : 'other';
  }
};

test('pheromone pressure: neutral without bounds, linear to 2 with a maximum, logarithmic without one', () => {
  assert.equal(computePheromonePressure(null), 1);
  assert.equal(computePheromonePressure({ min_intensity: 5, max_intensity: 10, normalisation_ceiling: 4 }), 1);
  assert.ok(
    Math.abs(computePheromonePressure({ min_intensity: 0, max_intensity: 10, normalisation_ceiling: 1 }) - 1.1) < 1e-12,
  );
  assert.ok(
    Math.abs(computePheromonePressure({ min_intensity: 0, max_intensity: 10, normalisation_ceiling: 9 }) - 1.9) < 1e-12,
  );
  assert.equal(computePheromonePressure({ min_intensity: 0, max_intensity: 10, normalisation_ceiling: 50 }), 2);
  assert.ok(
    Math.abs(
      computePheromonePressure({ min_intensity: 0, max_intensity: null, normalisation_ceiling: 15 }) -
        (1 + Math.log1p(15)),
    ) < 1e-12,
  );
});

test('scope fit: covered areas cost the base, partly writable ones more; read-only or excluded agents cannot bid', () => {
  const coder = agent('coder', { write: ['src/**'], exclude: ['src/secrets/**'], tags: ['typescript'] });
  assert.deepEqual(scopeFit(coder, ['src/auth/**'], ['typescript']), { scope: 1, tags: 1, eligible: true });
  assert.equal(heuristicCost(coder, scopeFit(coder, ['src/auth/**'], ['typescript'])), 100);
  const partial = scopeFit(coder, ['**/*.ts'], []);
  assert.deepEqual(partial, { scope: 0.5, tags: 1, eligible: true });
  assert.ok(Math.abs(heuristicCost(coder, partial) - 100 / 0.625) < 1e-9);
  assert.equal(scopeFit(coder, ['docs/**'], []).eligible, false);
  assert.equal(scopeFit(coder, ['src/secrets/keys.ts'], []).eligible, false);
  assert.equal(scopeFit(agent('reviewer', { write: [] }), ['src/a.ts'], []).eligible, false);
  assert.equal(
    scopeFit(agent('reviewer', { write: [] }), [], ['review']).eligible,
    true,
    'a task with no write scope suits a read-only agent',
  );
  assert.equal(scopeFit(coder, [], ['review', 'typescript']).tags, 0.5);
  assert.equal(
    scopeFit(agent('x', { tags: [' TypeScript '] }), [], ['typescript']).tags,
    1,
    'skills match ignoring case',
  );
});

test('announce: automatic bids say reason "auto" and the pressure; manual bids replace them', () => {
  const agents = [agent('alpha', { baseCost: 8 }), agent('beta', { baseCost: 6 }), agent('reviewer', { write: [] })];
  const call = announceCall(
    {
      call_id: 'c1',
      task_id: 'task-1',
      writeScope: ['src/a.ts'],
      tags: [' TS ', 'ts'],
      heuristics: { busy_penalty: 3 },
      pheromone_bounds: { min_intensity: 0, max_intensity: 20, normalisation_ceiling: 2 },
      manual_bids: [{ agent_id: 'beta', cost: 5, metadata: { reason: 'manual' } }],
      correlation: { run_id: ' r1 ', op_id: '' },
    },
    agents,
    100,
  );
  assert.equal(call.auto_bid_enabled, true);
  assert.deepEqual(call.tags, ['ts']);
  assert.deepEqual(call.correlation, {
    run_id: 'r1',
    op_id: null,
    job_id: null,
    graph_id: null,
    node_id: null,
    child_id: null,
  });
  assert.deepEqual(call.refreshed_agents, ['alpha', 'beta'], 'the read-only reviewer cannot write src/a.ts');
  const alpha = call.bids.find((b) => b.agent_id === 'alpha')!;
  assert.equal(alpha.kind, 'heuristic');
  assert.equal(alpha.metadata.reason, 'auto');
  assert.ok(Math.abs((alpha.metadata.pheromone_pressure as number) - 1.1) < 1e-12);
  const beta = call.bids.find((b) => b.agent_id === 'beta')!;
  assert.deepEqual(
    { kind: beta.kind, cost: beta.cost, metadata: beta.metadata },
    { kind: 'manual', cost: 5, metadata: { reason: 'manual' } },
  );
  cnpBidResult.parse(call);
  assert.equal(
    coded(() =>
      announceCall({ call_id: 'c2', task_id: 't', manual_bids: [{ agent_id: 'ghost', cost: 1 }] }, agents, 0),
    ),
    'AgentNotFound/',
  );
  assert.equal(announceCall({ call_id: 'c3', task_id: 't', auto_bid: false }, agents, 0).bids.length, 0);
});

test('award: lowest effective cost = cost + busy_penalty × load × pressure − preference − bias', () => {
  const agents = [agent('alpha', { load: 0 }), agent('beta', { load: 1 })];
  const heuristics = { prefer_agents: ['beta'], busy_penalty: 4, preference_bonus: 3 };
  const low = announceCall(
    {
      call_id: 'low',
      task_id: 't1',
      auto_bid: false,
      heuristics,
      pheromone_bounds: { min_intensity: 0, max_intensity: 10, normalisation_ceiling: 1 },
    },
    agents,
    0,
  );
  const lowBids = placeBid(
    placeBid(low, { agent_id: 'alpha', cost: 11.5 }, agents, 1),
    { agent_id: 'beta', cost: 10 },
    agents,
    2,
  );
  const lowOutcome = awardCall(lowBids, agents, [], 3);
  assert.equal(lowOutcome.decision?.agent_id, 'beta', 'beta: 10 + 4×1×1.1 − 3 = 11.4 < 11.5');
  assert.ok(Math.abs(lowOutcome.decision!.effective_cost - 11.4) < 1e-9);
  assert.equal(lowOutcome.call.status, 'awarded');
  const high = {
    ...lowBids,
    call_id: 'high',
    pheromone_bounds: { min_intensity: 0, max_intensity: 10, normalisation_ceiling: 9 },
  };
  assert.equal(awardCall(high, agents, [], 3).decision?.agent_id, 'alpha', 'beta: 10 + 4×1×1.9 − 3 = 14.6 > 11.5');
  const biased = { ...high, heuristics: { ...high.heuristics, agent_bias: { beta: 5 } } };
  assert.equal(awardCall(biased, agents, [], 3).decision?.agent_id, 'beta');
  cnpAwardResult.parse(awardResult(lowOutcome));
  cnpAnnounceResult.parse(announceResult(lowOutcome, { idempotent: false, key: null }));
});

test('ties go to the less busy agent, then the earlier bid, then the agent id', () => {
  const call = announceCall(
    { call_id: 'c', task_id: 't', auto_bid: false, heuristics: { busy_penalty: 0 } },
    [agent('a'), agent('b'), agent('c')],
    0,
  );
  const bids = placeBid(
    placeBid(placeBid(call, { agent_id: 'c', cost: 2 }, [agent('c')], 1), { agent_id: 'b', cost: 2 }, [agent('b')], 2),
    { agent_id: 'a', cost: 2 },
    [agent('a')],
    2,
  );
  assert.equal(
    awardCall(bids, [agent('a', { load: 1 }), agent('b', { load: 1 }), agent('c', { load: 2 })], [], 5).decision
      ?.agent_id,
    'a',
    'a and b are less busy than c and bid at the same time: the id decides',
  );
  assert.deepEqual(
    rankBids(bids, [agent('a'), agent('b'), agent('c')], []).map((r) => r.bid.agent_id),
    ['c', 'a', 'b'],
  );
});

test('refresh: automatic bids are reissued as auto_refresh, manual ones kept, new agents join unless told not to', () => {
  const agents = [agent('alpha', { baseCost: 8 }), agent('beta', { baseCost: 6 })];
  let call = announceCall(
    {
      call_id: 'c',
      task_id: 't',
      heuristics: { busy_penalty: 3 },
      pheromone_bounds: { min_intensity: 0, max_intensity: 20, normalisation_ceiling: 2 },
    },
    agents,
    0,
  );
  call = placeBid(call, { agent_id: 'beta', cost: 5, metadata: { reason: 'manual' } }, agents, 1);
  const manualBefore = call.bids.find((b) => b.agent_id === 'beta');
  const withGamma = [...agents, agent('gamma', { baseCost: 7 })];
  const r = refreshCallBounds(
    call,
    { min_intensity: 0, max_intensity: 20, normalisation_ceiling: 9 },
    {},
    withGamma,
    10,
  );
  assert.deepEqual(r.refreshedAgents, ['alpha', 'gamma']);
  assert.equal(r.autoBidRefreshed, true);
  const alpha = r.call.bids.find((b) => b.agent_id === 'alpha')!;
  assert.equal(alpha.metadata.reason, 'auto_refresh');
  assert.equal(alpha.metadata.pheromone_pressure, computePheromonePressure(r.call.pheromone_bounds));
  assert.equal(alpha.submitted_at, 10);
  assert.deepEqual(
    r.call.bids.find((b) => b.agent_id === 'beta'),
    manualBefore,
  );
  assert.deepEqual(refreshBoundsResult(r), {
    call_id: 'c',
    auto_bid_refreshed: true,
    refreshed_agents: ['alpha', 'gamma'],
    pheromone_bounds: { min_intensity: 0, max_intensity: 20, normalisation_ceiling: 9 },
    refresh: { requested: true, include_new_agents: true },
  });
  cnpRefreshBoundsResult.parse(refreshBoundsResult(r));
  const noNew = refreshCallBounds(call, null, { include_new_agents: false }, withGamma, 10);
  assert.deepEqual(noNew.refreshedAgents, ['alpha']);
  const noRefresh = refreshCallBounds(
    call,
    { min_intensity: 0, max_intensity: null, normalisation_ceiling: 7 },
    { refresh_auto_bids: false },
    withGamma,
    10,
  );
  assert.deepEqual(
    [
      noRefresh.autoBidRefreshed,
      noRefresh.refreshedAgents,
      noRefresh.call.bids.find((b) => b.agent_id === 'alpha')?.submitted_at,
    ],
    [false, [], 0],
  );
  assert.equal(noRefresh.call.pheromone_bounds?.normalisation_ceiling, 7);
});

test('bids stay in order (time, then agent) through announce, manual bids, refreshes and agents leaving or losing their fit', () => {
  const inOrder = (bids: readonly { agent_id: string; submitted_at: number }[]) =>
    [...bids]
      .sort(
        (a, b) => a.submitted_at - b.submitted_at || (a.agent_id < b.agent_id ? -1 : a.agent_id > b.agent_id ? 1 : 0),
      )
      .map((b) => `${b.submitted_at}:${b.agent_id}`);
  const keys = (bids: readonly { agent_id: string; submitted_at: number }[]) =>
    bids.map((b) => `${b.submitted_at}:${b.agent_id}`);
  // 60 agents in a shuffled order (ids not in the order they are listed), some manual bids late, some refreshes.
  let agents = Array.from({ length: 60 }, (_, i) =>
    agent(`a${String((i * 37) % 60).padStart(2, '0')}`, { baseCost: 10 + (i % 7) }),
  );
  let call = announceCall(
    {
      call_id: 'c',
      task_id: 't',
      manual_bids: [
        { agent_id: 'a05', cost: 1 },
        { agent_id: 'a41', cost: 2 },
      ],
    },
    agents,
    3,
  );
  assert.equal(call.bids.length, 60);
  assert.deepEqual(keys(call.bids), inOrder(call.bids));
  for (const [at, id] of [
    [5, 'a59'],
    [5, 'a00'],
    [4, 'a30'],
    [9, 'a05'],
  ] as const)
    call = placeBid(call, { agent_id: id, cost: 3 }, agents, at);
  assert.deepEqual(keys(call.bids), inOrder(call.bids));
  assert.equal(call.bids.length, 60, 'a second bid replaces the first');
  // Some agents go, some can no longer write the task's areas: their automatic bids leave, the rest are reissued.
  agents = agents.filter((a) => a.id !== 'a12').map((a) => (a.id === 'a20' ? { ...a, write: [] } : a));
  const r = refreshCallBounds({ ...call, writeScope: ['src/**'] }, null, {}, agents, 7);
  assert.deepEqual(keys(r.call.bids), inOrder(r.call.bids));
  assert.deepEqual(
    r.call.bids.filter((b) => b.agent_id === 'a12' || b.agent_id === 'a20'),
    [],
  );
  assert.equal(r.call.bids.length, 58);
  assert.deepEqual(
    r.call.bids
      .filter((b) => b.kind === 'manual')
      .map((b) => b.agent_id)
      .sort(),
    ['a00', 'a05', 'a30', 'a41', 'a59'],
  );
});

test('conflict-aware: a bid whose write scope may overlap a running task’s is not awarded unless overridden', () => {
  const agents = [agent('coder', { write: ['src/**'] }), agent('docs', { write: ['docs/**'] })];
  const running = [{ taskId: 'task-1', agentId: 'coder', writeScope: ['src/auth/**'] }];
  const call = announceCall({ call_id: 'c', task_id: 'task-2', writeScope: ['src/auth/session.ts'] }, agents, 0);
  const blocked = awardCall(call, agents, running, 1);
  assert.equal(blocked.decision, null);
  assert.ok(blocked.decision === null && blocked.reason === 'scope_conflict');
  assert.deepEqual(blocked.call, call, 'the call stays open');
  const result = announceResult(blocked, { idempotent: false, key: null });
  assert.equal(result.notAwardedReason, 'scope_conflict');
  assert.deepEqual(result.conflicts, [
    {
      agentId: 'coder',
      runningTaskId: 'task-1',
      runningAgentId: 'coder',
      pairs: [{ left: 'src/auth/session.ts', right: 'src/auth/**' }],
    },
  ]);
  assert.equal(
    coded(() => awardResult(blocked)),
    'InvalidStatus/E-CNP-SCOPE-CONFLICT',
  );
  const forced = awardCall(call, agents, running, 1, { allowOverlap: true });
  assert.equal(forced.decision?.agent_id, 'coder');
  assert.equal(awardResult(forced).conflicts.length, 1, 'the override is reported');
  const elsewhere = announceCall({ call_id: 'd', task_id: 'task-3', writeScope: ['src/api/**'] }, agents, 0);
  assert.equal(
    awardCall(elsewhere, agents, running, 1).decision?.agent_id,
    'coder',
    'disjoint scopes run side by side',
  );
  const noScope = announceCall({ call_id: 'e', task_id: 'task-4' }, agents, 0);
  assert.equal(
    awardCall(noScope, agents, running, 1).decision?.agent_id,
    'docs',
    'without task areas the agent’s own scope counts',
  );
  assert.equal(
    awardCall(call, agents, [{ ...running[0], taskId: 'task-2' }], 1).decision?.agent_id,
    'coder',
    'a task never conflicts with itself',
  );
});

test('award by name, repeats, completion, deadlines and closed calls', () => {
  const agents = [agent('a'), agent('b')];
  const call = announceCall({ call_id: 'c', task_id: 't', auto_bid: false, deadline_ms: 100 }, agents, 0);
  assert.equal(
    coded(() => awardResult(awardCall(call, agents, [], 1))),
    'InvalidStatus/E-CNP-NO-BIDS',
  );
  const bid = placeBid(placeBid(call, { agent_id: 'a', cost: 1 }, agents, 10), { agent_id: 'b', cost: 9 }, agents, 20);
  assert.equal(
    coded(() => placeBid(call, { agent_id: 'a', cost: 1 }, agents, 101)),
    'InvalidStatus/E-CNP-DEADLINE',
  );
  assert.equal(
    coded(() => placeBid(call, { agent_id: 'a', cost: -1 }, agents, 1)),
    'ValidationError/E-CNP-COST',
  );
  assert.equal(
    coded(() => awardCall(bid, agents, [], 30, { agentId: 'zed' })),
    'InvalidStatus/E-CNP-NO-BID',
  );
  const chosen = awardCall(bid, agents, [], 30, { agentId: 'b' });
  assert.equal(chosen.decision?.agent_id, 'b');
  const again = awardCall(chosen.call, agents, [], 99);
  assert.deepEqual(
    [again.decision?.agent_id, again.decision?.awarded_at],
    ['b', 30],
    'an awarded call answers its decision again',
  );
  assert.equal(
    coded(() => awardCall(chosen.call, agents, [], 99, { agentId: 'a' })),
    'InvalidStatus/E-CNP-AWARDED',
  );
  assert.equal(
    coded(() => placeBid(chosen.call, { agent_id: 'a', cost: 1 }, agents, 40)),
    'InvalidStatus/E-CNP-CLOSED',
  );
  assert.equal(
    coded(() => completeCall(call)),
    'InvalidStatus/E-CNP-NOT-AWARDED',
  );
  const done = completeCall(chosen.call);
  assert.equal(done.status, 'completed');
  assert.equal(completeCall(done), done);
  assert.equal(
    coded(() => refreshCallBounds(done, null, {}, agents, 50)),
    'InvalidStatus/E-CNP-CLOSED',
  );
});

test('agent definitions become bidders: write scope, tags or skills, base cost, current load', () => {
  const defs = [
    {
      name: 'coder',
      scope: { read: ['**'], write: ['src/**'], exclude: ['**/*.env'] },
      config: { tags: ['TypeScript'], skills: ['tests'], base_cost: 40 },
    },
    { name: 'reviewer', scope: { read: ['**'], write: [], exclude: [] }, config: {} },
  ];
  assert.deepEqual(agentsFromDefinitions(defs, { coder: 2 }), [
    { id: 'coder', write: ['src/**'], exclude: ['**/*.env'], tags: ['tests', 'typescript'], baseCost: 40, load: 2 },
    { id: 'reviewer', write: [], exclude: [], tags: [], baseCost: 100, load: 0 },
  ]);
});
