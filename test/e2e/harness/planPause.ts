import assert from 'node:assert/strict';
import os from 'node:os';
import type { Frame, Page } from 'playwright-core';
import type { PlanWorld, RunStatus, RunnerProcess } from '../../mcp/planRunHelpers';
import { executionsOf, startRunner } from '../../mcp/planRunHelpers';
import { planNodes } from './planNodes';

/**
 * Pause from a plan run's bar (the editor's Plan graph frame or the web board's page) while its
 * first task is queued and no runner runs yet: the run is paused by the view's person, the task is
 * held back (open again), and a runner started then launches nothing — its polls (0.2 s) and the
 * plan's ticks get 1.5 s to take a step, since nothing announces a launch that does not happen.
 * Answers the runner, for the test to resume and go on with (and to stop); stopped here on a failure.
 */
export async function pauseLaunchesNothing(
  root: Page | Frame,
  o: {
    w: PlanWorld;
    runId: string;
    /** The queued task the pause holds back. */
    task: string;
    /** The runner's environment (the scripted agents). */
    env: Record<string, string>;
    /** Who the view is, in the assertion's words: "the editor's person". */
    person: string;
    /** How long the bar may take to show the pause. */
    pausedWithinMs: number;
  },
): Promise<RunnerProcess> {
  const { until } = planNodes(root, () => 'no runner yet');
  await root.locator('[data-testid=plan-pause]').click();
  await root.locator('[data-testid=plan-run][data-status=paused]').waitFor({ timeout: o.pausedWithinMs });
  const paused = (await o.w.orch.call<{ runs: RunStatus[] }>('plan_status', { run_id: o.runId })).runs[0];
  assert.equal(paused.status, 'paused');
  assert.equal(paused.reason, `paused by person:${os.userInfo().username}`, `${o.person}, recorded`);
  await until(o.task, 'waiting');

  const runner = startRunner(o.w.repo, o.env);
  try {
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepEqual(
      runner.events.filter((e) => e.kind === 'launched'),
      [],
      `no launch while paused\n${runner.summary()}`,
    );
    assert.deepEqual(await executionsOf(o.w.orch, o.task), []);
    const task = await o.w.orch.call<{ status: string }>('task_get', { id: Number(o.task.slice(5)) });
    assert.equal(task.status, 'open', 'the queued task was held back');
  } catch (err) {
    // The test never gets this runner to stop: stop it here, so no process outlives the test.
    await runner.stop();
    throw err;
  }
  return runner;
}
