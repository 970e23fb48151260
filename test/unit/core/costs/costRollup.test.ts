// The cost roll-up on both engines: sums per task (own runs, per agent, with sub-tasks), per
// workflow, per agent and project, summed by the database from execution logs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LedgerEngine } from '../../../../src/core/ports/store';
import { CostRollupService, noCost, taskCosts } from '../../../../src/core/costs/costRollup';
import { LedgerError } from '../../../../src/core/errors';
import { engineCases } from '../../store/engines/engineKit';
import { workflowReport } from '../../../../src/core/workflows/workflowReport';

const at = (n: number): string => `2026-11-23T10:00:${String(n).padStart(2, '0')}.000Z`;

interface Run {
  task: number | null;
  agent: string;
  project?: number | null;
  status?: string;
  cost?: number | null;
  input?: number | null;
  output?: number | null;
  cache?: number | null;
  ms?: number | null;
}

async function addRuns(engine: LedgerEngine, runs: Run[]): Promise<void> {
  await engine.write(async (tx) => {
    for (const [i, r] of runs.entries()) {
      await tx.insert(
        `INSERT INTO execution_logs (task_id, agent, project_id, status, started_at, completed_at, duration_ms, input_tokens, output_tokens, cache_read_tokens, cost_usd)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          r.task,
          r.agent,
          r.project ?? null,
          r.status ?? 'completed',
          at(i),
          r.status === 'running' ? null : at(i + 1),
          r.ms ?? null,
          r.input ?? null,
          r.output ?? null,
          r.cache ?? null,
          r.cost ?? null,
        ],
      );
    }
  });
}

async function world(engine: LedgerEngine): Promise<Record<string, number>> {
  return engine.write(async (tx) => {
    const wf = await tx.insert('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', [
      'Checkout',
      at(0),
      at(0),
    ]);
    const other = await tx.insert('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', [
      'Empty',
      at(0),
      at(0),
    ]);
    const task = (title: string, workflowId: number | null, parentId: number | null): Promise<number> =>
      tx.insert(
        'INSERT INTO tasks (workflow_id, parent_id, title, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
        [workflowId, parentId, title, 'open', at(0), at(0)],
      );
    const parent = await task('Parent', wf, null);
    const child = await task('Child', wf, parent);
    const grandchild = await task('Grandchild', wf, child);
    const loose = await task('Loose', null, null);
    const idle = await task('Idle', wf, null);
    const project = await tx.insert(
      'INSERT INTO projects (name, working_directory, created_at, updated_at) VALUES (?, ?, ?, ?)',
      ['web', 'packages/web', at(0), at(0)],
    );
    return { wf, other, parent, child, grandchild, loose, idle, project };
  });
}

for (const engineCase of engineCases) {
  test(
    `cost roll-up on ${engineCase.name}: per task, with sub-tasks, per workflow, per agent and project`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const ids = await world(engine);
        await addRuns(engine, [
          {
            task: ids.parent,
            agent: 'coder',
            project: ids.project,
            cost: 0.0421,
            input: 1200,
            output: 300,
            cache: 5000,
            ms: 61_000,
          },
          { task: ids.parent, agent: 'reviewer', project: ids.project, cost: 0.01, input: 400, output: 90, ms: 20_500 },
          { task: ids.parent, agent: 'coder', project: ids.project, status: 'running' },
          { task: ids.child, agent: 'coder', project: null, cost: 0.1, input: 10, output: 20, ms: 1000 },
          { task: ids.grandchild, agent: 'gemini-bot', status: 'error', cost: null, ms: 500 },
          { task: ids.loose, agent: 'coder', cost: 1.5, input: 7, output: 8 },
          { task: null, agent: 'coder', status: 'failed', cost: 0.2 },
        ]);
        // Another engine on the same ledger reads what this one wrote (another process would).
        const costs = new CostRollupService(await ledger.open());

        const parent = await costs.ofTask(`task-${ids.parent}`);
        assert.deepEqual(
          {
            runs: parent.runs,
            running: parent.running,
            costUsd: parent.costUsd,
            unpricedRuns: parent.unpricedRuns,
            inputTokens: parent.inputTokens,
            outputTokens: parent.outputTokens,
            cacheReadTokens: parent.cacheReadTokens,
            durationSeconds: parent.durationSeconds,
          },
          {
            runs: 3,
            running: 1,
            costUsd: 0.0521,
            unpricedRuns: 0,
            inputTokens: 1600,
            outputTokens: 390,
            cacheReadTokens: 5000,
            durationSeconds: 81.5,
          },
          'summed to a millionth, not 0.052100000000000003',
        );
        assert.deepEqual(
          parent.byAgent.map((a) => [a.agent, a.runs, a.costUsd]),
          [
            ['coder', 2, 0.0421],
            ['reviewer', 1, 0.01],
          ],
          'per agent, most expensive first',
        );
        assert.ok(parent.withSubtasks, 'a parent has a total with its sub-tasks');
        assert.equal(parent.withSubtasks.runs, 5, 'its three runs, the child’s and the grandchild’s');
        assert.equal(parent.withSubtasks.costUsd, 0.1521);
        assert.equal(parent.withSubtasks.unpricedRuns, 1, 'the grandchild’s run reported no cost');

        const grandchild = await costs.ofTask(ids.grandchild);
        assert.equal(grandchild.withSubtasks, null, 'no sub-tasks: no second total');
        assert.equal(grandchild.unpricedRuns, 1);
        assert.equal(grandchild.costUsd, 0);

        const idle = await costs.ofTask(ids.idle);
        assert.deepEqual(
          { ...idle, byAgent: undefined, withSubtasks: undefined },
          { ...noCost, byAgent: undefined, withSubtasks: undefined },
          'a task without runs costs nothing',
        );
        await assert.rejects(costs.ofTask(99_999), (e: unknown) => LedgerError.is(e) && e.code === 'TaskNotFound');
        await assert.rejects(
          costs.ofTask('not a task'),
          (e: unknown) => LedgerError.is(e) && e.code === 'ValidationError',
        );

        const wf = await costs.ofWorkflow(`wf-${ids.wf}`);
        assert.equal(wf.workflowId, `wf-${ids.wf}`);
        assert.equal(wf.runs, 5, 'every run on its tasks, sub-tasks included; not the loose task’s');
        assert.equal(wf.costUsd, 0.1521);
        assert.deepEqual(
          wf.byTask.map((t) => [t.taskId, t.costUsd]),
          [
            [`task-${ids.child}`, 0.1],
            [`task-${ids.parent}`, 0.0521],
            [`task-${ids.grandchild}`, 0],
          ],
        );
        assert.deepEqual(
          wf.byAgent.map((a) => [a.agent, a.runs]),
          [
            ['coder', 3],
            ['reviewer', 1],
            ['gemini-bot', 1],
          ],
        );
        const empty = await costs.ofWorkflow(ids.other);
        assert.equal(empty.runs, 0);
        assert.deepEqual(empty.byTask, []);
        await assert.rejects(costs.ofWorkflow(99_999), (e: unknown) => LedgerError.is(e) && e.code === 'NotFound');
        const report = await workflowReport(engine, ids.wf, new Date(at(9)));
        assert.match(
          report,
          /\*\*Agent runs:\*\* \$0\.1521 · 5 runs · 1\.6k tokens in, 410 tokens out, 5\.0k tokens from cache · 1 running · 1 run without a reported cost/,
        );
        assert.match(
          report,
          /Parent \(`task-\d+`, open, \$0\.0521 in 3 runs\)/,
          'each task says what its own runs cost',
        );
        assert.doesNotMatch(
          await workflowReport(engine, ids.other, new Date(at(9))),
          /Agent runs/,
          'no runs, no cost line',
        );

        const coder = await costs.ofAgent('coder');
        assert.equal(coder.runs, 5, 'runs outside any task count for the agent');
        assert.equal(coder.costUsd, 1.8421);
        assert.deepEqual(
          coder.byProject.map((p) => [p.projectId, p.runs, p.costUsd]),
          [
            [null, 3, 1.8],
            [`prj-${ids.project}`, 2, 0.0421],
          ],
        );
        assert.equal((await costs.ofAgent('nobody')).runs, 0, 'an agent that never ran costs nothing');
        await assert.rejects(costs.ofAgent('  '), (e: unknown) => LedgerError.is(e) && e.code === 'ValidationError');
        assert.deepEqual(
          (await costs.agents()).map((a) => a.agent),
          ['coder', 'reviewer', 'gemini-bot'],
        );

        const many = await costs.ofTasks([ids.parent, ids.loose, ids.idle]);
        assert.deepEqual(
          [...many.keys()].sort((a, b) => a - b),
          [ids.parent, ids.loose],
          'tasks without runs are absent',
        );
        const all = await engine.read((db) => taskCosts(db));
        assert.equal(all.size, 4, 'every task with runs in one pass');
        assert.equal(all.get(ids.loose)?.costUsd, 1.5);
      } finally {
        await ledger.dispose();
      }
    },
  );

  test(`cost roll-up on ${engineCase.name}: more tasks than one IN list holds`, { skip: engineCase.skip }, async () => {
    const ledger = await engineCase.ledger();
    try {
      const engine = await ledger.open();
      const taskIds = await engine.write(async (tx) => {
        const out: number[] = [];
        for (let i = 0; i < 1_203; i++)
          out.push(
            await tx.insert('INSERT INTO tasks (title, status, created_at, updated_at) VALUES (?, ?, ?, ?)', [
              `t${i}`,
              'open',
              at(0),
              at(0),
            ]),
          );
        for (const id of out)
          await tx.insert(
            'INSERT INTO execution_logs (task_id, agent, status, started_at, cost_usd) VALUES (?, ?, ?, ?, ?)',
            [id, 'coder', 'completed', at(0), 0.001],
          );
        return out;
      });
      const costs = await new CostRollupService(engine).ofTasks(taskIds);
      assert.equal(costs.size, 1_203);
      assert.ok([...costs.values()].every((c) => c.runs === 1 && c.costUsd === 0.001));
    } finally {
      await ledger.dispose();
    }
  });
}
