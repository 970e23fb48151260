/**
 * A plan run outlives the processes that run it: `kill -9` of the MCP server that started it and of
 * the runner mid-plan, then a new runner — the real processes, the scripted agent clients, the
 * embedded store (and PostgreSQL with `--pg`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import type { RunStatus } from './planRunHelpers';
import { dependsOn, executionsOf, planTask, planWorld, startRunner, untilEnded, working } from './planRunHelpers';

test('kill -9 of the server that started a plan and of the runner mid-plan: a new runner carries the plan to its end, no task launched twice', async () => {
  const w = await planWorld(['coder', 'reviewer']);
  const t1 = await planTask(w, 'first');
  const t2 = await planTask(w, 'second');
  const t3 = await planTask(w, 'third');
  await dependsOn(w, [
    [t1, t2],
    [t2, t3],
  ]);
  const env = w.fakes.env({ steps: [], byAgent: { coder: working(2500), reviewer: working(2500) } });
  const starter = await connect(w.repo, ['--enable-orchestrator']);
  const first = startRunner(w.repo, env);
  let second: ReturnType<typeof startRunner> | undefined;
  try {
    const started = await starter.call<RunStatus>('plan_run_reactive', {
      graph_id: w.workflowId,
      agents: { [t1]: 'coder', [t2]: 'reviewer', [t3]: 'coder' },
      tick_ms: 100,
    });
    const launched = await first.until(
      (e) => e.kind === 'launched' && (e.instance as { taskId: string }).taskId === t1,
    );
    // Once the runner has recorded the agent's process (its log file on the run), both die without
    // a word while the first agent works.
    const executionId = (launched.instance as { executionId: string }).executionId;
    for (let i = 0; i < 100; i++) {
      const { log } = await w.orch.call<{ log: { logFilePath: string | null } }>('get_execution_log', {
        execution_id: executionId,
      });
      if (log.logFilePath) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    process.kill((starter.client.transport as unknown as { pid: number }).pid, 'SIGKILL');
    await first.stop('SIGKILL');
    await starter.close().catch(() => undefined);
    // The agent outlives its runner and reports: its task is done, its run closed, but the pair
    // stays claimed by the dead runner until a runner records the process's end.
    for (let i = 0; i < 200; i++) {
      const { status } = await w.orch.call<{ status: string }>('task_get', { id: Number(t1.slice(5)) });
      if (status === 'done') break;
      await new Promise((r) => setTimeout(r, 100));
    }

    second = startRunner(w.repo, env);
    const ended = await untilEnded(w.orch, started.run_id).catch((err: Error) => {
      throw new Error(
        `${err.message}\nfirst runner:\n${first.summary()}\nsecond runner:\n${second?.summary()}\n${second?.stderr()}`,
      );
    });
    assert.equal(ended.status, 'succeeded', JSON.stringify(ended.nodes));
    for (const t of [t1, t2, t3]) {
      const logs = await executionsOf(w.orch, t);
      assert.equal(logs.length, 1, `${t} was launched once: ${JSON.stringify(logs)}`);
    }
    const launchedBySecond = second.events
      .filter((e) => e.kind === 'launched')
      .map((e) => (e.instance as { taskId: string }).taskId);
    assert.ok(!launchedBySecond.includes(t1), 'the new runner did not launch the first task again');
    assert.ok(launchedBySecond.includes(t3), 'the new runner launched what came after');
  } finally {
    await second?.stop();
    await first.stop();
    await w.orch.close();
  }
});
