import { test } from 'node:test';
import assert from 'node:assert/strict';
import { announceCall } from '../../../../../src/core/scheduling/contractNet/contractNet';
import { assignOpenCalls } from '../../../../../src/core/scheduling/contractNet/contractNetSchedule';
import type { CnpAgent } from '../../../../../src/core/scheduling/contractNet/contractNetModel';
import { scopesOverlap } from '../../../../../src/core/tasks/scopeOverlap';

const agent = (id: string, write: string[], load = 0): CnpAgent => ({
  id,
  write,
  exclude: [],
  tags: [],
  baseCost: 100,
  load,
});

test('one pass never awards two calls with overlapping write scopes, and spreads load', () => {
  const agents = [agent('a1', ['src/**']), agent('a2', ['src/**']), agent('docs', ['docs/**'])];
  const scopes = [['src/auth/**'], ['src/auth/login.ts'], ['src/api/**'], ['docs/guide.md'], ['src/**'], ['docs/**']];
  const calls = scopes.map((writeScope, i) =>
    announceCall({ call_id: `c${i}`, task_id: `task-${i}`, writeScope }, agents, i),
  );
  const pass = assignOpenCalls(calls, agents, [], 100);
  assert.deepEqual(
    pass.decisions.map((d) => [d.call_id, d.agent_id]),
    [
      ['c0', 'a1'],
      ['c2', 'a2'],
      ['c3', 'docs'],
    ],
  );
  assert.deepEqual(
    pass.blocked.map((b) => [b.call_id, b.reason]),
    [
      ['c1', 'scope_conflict'],
      ['c4', 'scope_conflict'],
      ['c5', 'scope_conflict'],
    ],
  );
  assert.deepEqual(
    pass.blocked[0].conflicts.map((c) => c.runningTaskId),
    ['task-0', 'task-0'],
  );
  for (const x of pass.running)
    for (const y of pass.running) if (x !== y) assert.equal(scopesOverlap(x.writeScope, y.writeScope), false);
  assert.deepEqual(
    pass.agents.map((a) => a.load),
    [1, 1, 1],
  );
  assert.deepEqual(
    pass.calls.map((c) => c.status),
    ['awarded', 'open', 'awarded', 'awarded', 'open', 'open'],
  );
});

test('running tasks block from the start; allowOverlap is the explicit override', () => {
  const agents = [agent('a1', ['src/**'])];
  const running = [{ taskId: 'task-9', agentId: 'a1', writeScope: ['src/**'] }];
  const calls = [announceCall({ call_id: 'c', task_id: 'task-1', writeScope: ['src/x.ts'] }, agents, 0)];
  assert.equal(assignOpenCalls(calls, agents, running, 1).decisions.length, 0);
  const forced = assignOpenCalls(calls, agents, running, 1, { allowOverlap: true });
  assert.deepEqual(
    forced.decisions.map((d) => d.agent_id),
    ['a1'],
  );
  assert.equal(forced.running.length, 2);
});

test('property: with random scopes, no two tasks running after a pass may overlap', () => {
  let seed = 17;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pool = [
    'src/auth/**',
    'src/api/**',
    'src/ui/*.tsx',
    'docs/**',
    'README.md',
    'test/**/*.test.ts',
    'src/auth/login.ts',
    'lib/**',
    'src/**/*.css',
    'scripts/build.mjs',
  ];
  for (let round = 0; round < 40; round++) {
    const agents = [agent('a', ['**']), agent('b', ['src/**', 'test/**']), agent('c', ['docs/**', 'README.md'])];
    const calls = Array.from({ length: 12 }, (_, i) =>
      announceCall(
        { call_id: `r${round}-${i}`, task_id: `task-${i}`, writeScope: [pool[Math.floor(random() * pool.length)]] },
        agents,
        i,
      ),
    );
    const { running } = assignOpenCalls(calls, agents, [], 1000);
    for (let i = 0; i < running.length; i++) {
      for (let j = i + 1; j < running.length; j++)
        assert.equal(
          scopesOverlap(running[i].writeScope, running[j].writeScope),
          false,
          `${running[i].taskId} vs ${running[j].taskId}`,
        );
    }
  }
});
