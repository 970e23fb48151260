// The board's overlap warning finds exactly the pairs the award's rule finds comparing every
// pattern of every running task with every other (scopeOverlaps), through its head index.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { overlapsAmongRunning } from '../../../../src/core/board/runningOverlaps';
import { scopeOverlaps } from '../../../../src/core/tasks/scopeOverlap';
import type { RunningTask } from '../../../../src/core/scheduling/contractNet/contractNetModel';

const patterns = [
  'src/auth/**',
  'src/auth/login.ts',
  'src/ui/app.ts',
  'src/**/*.test.ts',
  '**/*.md',
  'docs/guide.md',
  'auth',
  'src/{api,db}/**',
  'src/api/routes.ts',
  'lib/util',
  'lib/util/strings.ts',
  'lib/utility.ts',
  'test/unit/**',
  '*.json',
  'package.json',
  'src/ui/*.css',
];

test('overlapsAmongRunning pairs exactly the running tasks scopeOverlaps pairs, with the same patterns', () => {
  // 40 tasks, each with three patterns picked deterministically (some share, some never meet).
  const running: RunningTask[] = Array.from({ length: 40 }, (_, i) => ({
    taskId: `task-${i + 1}`,
    agentId: i % 3 === 0 ? null : `agent-${i % 5}`,
    writeScope: [
      ...new Set([
        patterns[(i * 7) % patterns.length],
        patterns[(i * 3 + 1) % patterns.length],
        patterns[(i * 11 + 5) % patterns.length],
      ]),
    ],
  }));
  running.push({ taskId: 'task-99', agentId: null, writeScope: [] });
  const found = overlapsAmongRunning(running);
  let pairs = 0;
  for (const a of running) {
    for (const b of running) {
      if (a === b) continue;
      const brute = scopeOverlaps(a.writeScope, b.writeScope);
      const listed = found.get(a.taskId)?.find((o) => o.task === b.taskId);
      if (brute.length === 0) {
        assert.equal(listed, undefined, `${a.taskId} and ${b.taskId} cannot meet`);
        continue;
      }
      pairs++;
      assert.ok(listed, `${a.taskId} and ${b.taskId} may meet through ${JSON.stringify(brute)}`);
      const expected = [
        ...new Set([
          ...a.writeScope.filter((p) => brute.some((x) => x.left === p)),
          ...b.writeScope.filter((p) => brute.some((x) => x.right === p)),
        ]),
      ];
      assert.deepEqual(listed.paths, expected);
      assert.equal(listed.agent, b.agentId);
    }
  }
  assert.ok(pairs > 50, `the inputs exercise many pairs (${pairs})`);
  assert.equal(found.get('task-99'), undefined, 'a task without areas overlaps nothing');
});

test('10,000 marked files over 200 running tasks: the index keeps it to the pairs that meet', () => {
  const running: RunningTask[] = Array.from({ length: 200 }, (_, i) => ({
    taskId: `task-${i + 1}`,
    agentId: null,
    writeScope: Array.from({ length: 50 }, (_, k) => `src/m${i}/f${k}.ts`).concat(i === 7 ? ['src/m8/**'] : []),
  }));
  const started = performance.now();
  const found = overlapsAmongRunning(running);
  const ms = performance.now() - started;
  assert.deepEqual([...found.keys()].sort(), ['task-8', 'task-9']);
  assert.equal(found.get('task-8')![0].paths.length, 51, 'the glob and the 50 files under it');
  assert.ok(ms < 20_000, `took ${ms.toFixed(0)} ms`);
});
