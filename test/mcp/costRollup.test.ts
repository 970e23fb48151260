/**
 * What a run cost, from the runner to the faces: the real `agent-ledger runner --once` launches a
 * scripted `claude` that reports its cost and tokens as Claude Code prints them; task_get (MCP,
 * structuredContent) and `agent-ledger task get` (text and --json) show the sums.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeAgents, logIn } from '../helpers/fakeAgents';
import { cli, cliJson } from '../helpers/cli';
import { pmWorld, runnerOnce, runningTask } from './pmHelpers';

test('a run’s reported cost and tokens are summed on task_get and `task get`', async () => {
  const { repo, c } = await pmWorld();
  const fakes = fakeAgents();
  try {
    const taskId = await runningTask(c, 'Priced work', 'coder', 'web');
    const before = await c.call<{ cost: { runs: number; costUsd: number; byAgent: unknown[]; withSubtasks: unknown } }>(
      'task_get',
      { id: taskId },
    );
    assert.deepEqual(
      [before.cost.runs, before.cost.costUsd, before.cost.byAgent, before.cost.withSubtasks],
      [0, 0, [], null],
      'no runs yet: nothing spent',
    );

    const env = fakes.env({
      usage: { costUsd: 0.0421, inputTokens: 1200, outputTokens: 300, cacheReadTokens: 5000 },
      steps: [
        logIn,
        { call: 'get_my_task', args: {} },
        { call: 'report_completed', args: { result: 'success', summary: 'done' } },
      ],
    });
    const run = runnerOnce(repo, env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fakes.runs().length, 1, 'the coder was launched once');

    const got = await c.call<{
      id: number;
      cost: {
        runs: number;
        running: number;
        costUsd: number;
        inputTokens: number;
        outputTokens: number;
        cacheReadTokens: number;
        unpricedRuns: number;
        byAgent: Array<{ agent: string; costUsd: number }>;
      };
    }>('task_get', { id: taskId });
    assert.deepEqual(
      {
        runs: got.cost.runs,
        running: got.cost.running,
        costUsd: got.cost.costUsd,
        inputTokens: got.cost.inputTokens,
        outputTokens: got.cost.outputTokens,
        cacheReadTokens: got.cost.cacheReadTokens,
        unpricedRuns: got.cost.unpricedRuns,
      },
      {
        runs: 1,
        running: 0,
        costUsd: 0.0421,
        inputTokens: 1200,
        outputTokens: 300,
        cacheReadTokens: 5000,
        unpricedRuns: 0,
      },
    );
    assert.deepEqual(
      got.cost.byAgent.map((a) => [a.agent, a.costUsd]),
      [['coder', 0.0421]],
    );

    const json = cliJson<{ cost: { costUsd: number } }>(['task', 'get', String(got.id), '--workspace', repo]);
    assert.equal(json.cost.costUsd, 0.0421, 'the CLI prints the tool’s answer');
    const text = cli(['task', 'get', String(got.id), '--workspace', repo]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /Cost: \$0\.0421 · 1 run · 1\.2k tokens in, 300 tokens out, 5\.0k tokens from cache/);
  } finally {
    await c.close();
  }
});
