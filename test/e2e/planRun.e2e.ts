// Issue 29's "seen by people" in the editor: a plan of three tasks runs with the scripted agents
// through the real `agent-ledger runner`, in a real VS Code (code-server) with the VSIX installed.
// The Board's strip shows the run and opens the Plan graph; its nodes follow each task (running
// with its execution and agent, done with its cost); Pause from the panel is recorded as the
// editor's person and holds back the queued task (no launch); Cancel stops the running agent's process.
// Run alone: npm run e2e:setup && node --import tsx --test --test-reporter=spec test/e2e/planRun.e2e.ts
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame } from 'playwright-core';
import { BrowserSession, Workbench } from './harness/browser';
import { CodeServer } from './harness/codeServer';
import { planNodes } from './harness/planNodes';
import { pauseLaunchesNothing } from './harness/planPause';
import { assertHostInstalled } from './harness/paths';
import { packageAgentLedger } from './agentLedger/extensionPackage';
import { viewFrame } from './agentLedger/boardJourney';
import type { PlanWorld, RunStatus, RunnerProcess } from '../mcp/planRunHelpers';
import { alive, dependsOn, executionsOf, planTask, planWorld, working } from '../mcp/planRunHelpers';

describe(
  'a plan run in the editor: the Board strip, the Plan graph live, Pause and Cancel',
  { timeout: 300_000 },
  () => {
    let w: PlanWorld;
    let server: CodeServer;
    let browser: BrowserSession;
    let wb: Workbench;
    let runner: RunnerProcess | undefined;

    before(async () => {
      assertHostInstalled();
      const pkg = await packageAgentLedger();
      w = await planWorld(['coder', 'a2', 'a3']);
      server = CodeServer.create({ name: 'agent-ledger-plan-run' });
      await server.installExtension(pkg.vsixPath);
      await server.start();
      browser = await BrowserSession.launch({
        consoleLogFile: path.join(server.runDir, 'browser-console.log'),
        viewport: { width: 1600, height: 1000 },
      });
      wb = await Workbench.open(await browser.page(), server.workbenchUrl(w.repo));
    });

    after(async () => {
      await wb?.screenshot('agent-ledger-plan-run-final').catch(() => undefined);
      await runner?.stop();
      await w?.orch.close().catch(() => undefined);
      await browser?.close();
      await server?.stop();
    });

    it('runs 3 tasks through the real runner; Pause holds back its queued task, Cancel stops its agent', async () => {
      const t1 = await planTask(w, 'schema');
      const t2 = await planTask(w, 'api');
      const t3 = await planTask(w, 'docs');
      await dependsOn(w, [
        [t1, t2],
        [t2, t3],
      ]);
      const env = w.fakes.env({
        steps: [],
        byAgent: {
          coder: { ...working(1000), usage: { costUsd: 0.42 } },
          // The second task's agent works until it is stopped.
          a2: { steps: [...working(0).steps.slice(0, 2), { sleep: 120_000 }] },
          a3: working(100),
        },
      });
      const started = await w.orch.call<RunStatus>('plan_run_reactive', {
        graph_id: w.workflowId,
        agents: { [t1]: 'coder', [t2]: 'a2', [t3]: 'a3' },
        tick_ms: 200,
      });

      await wb.runCommand('Agent Ledger: Open Board');
      const board = await viewFrame(wb.page, 'board', 30_000);
      const strip = board.locator(`[data-testid=plan-runs] [data-run="${started.run_id}"]`);
      await strip.waitFor({ timeout: 20_000 });
      await strip.locator('a', { hasText: started.run_id }).click();
      const graph: Frame = await viewFrame(wb.page, 'planGraph', 30_000);
      const { state, until } = planNodes(graph, () => runner?.summary() ?? 'no runner yet');

      // The first task is queued (no runner yet): Pause from the panel holds it back, and a runner
      // started then launches nothing.
      await until(t1, 'queued');
      assert.equal(await state(t2), 'waiting');
      runner = await pauseLaunchesNothing(graph, {
        w,
        runId: started.run_id,
        task: t1,
        env,
        person: "the editor's person",
        pausedWithinMs: 10_000,
      });
      await wb.screenshot('agent-ledger-plan-run-paused');

      // Resume: the first task's agent runs and ends with its cost; the second's starts.
      await graph.locator('[data-testid=plan-resume]').click();
      await until(t1, 'running');
      assert.match(
        (await graph.locator(`[data-node="${t1}"] .node-plan`).textContent()) ?? '',
        /running exec-\d+ · coder/,
      );
      await graph
        .locator(`[data-node="${t1}"][data-plan-state=done] .node-plan`, { hasText: '$0.42' })
        .waitFor({ timeout: 30_000 });
      await until(t2, 'running');
      const launched = await runner.until(
        (e) => e.kind === 'launched' && (e.instance as { agentId: string }).agentId === 'a2',
      );
      const pid = (launched.instance as { pid: number }).pid;
      assert.ok(alive(pid));
      await graph.locator('[data-testid=plan-cancel]').click();
      await graph.locator('[data-testid=plan-run][data-status=cancelled]').waitFor({ timeout: 10_000 });
      await until(t2, 'cancelled', 10_000);
      for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(alive(pid), false, 'no agent process after Cancel');
      // What the button did, said on the page once the service answered (its agents stopped).
      await graph
        .locator('[data-testid=acted]', { hasText: `${started.run_id} is cancelled` })
        .waitFor({ timeout: 15_000 });
      // Who cancelled it: the editor's person, on the bar and in plan_status.
      await graph
        .locator('[data-testid=plan-run]', { hasText: `cancelled by ${os.userInfo().username}` })
        .waitFor({ timeout: 5_000 });
      const cancelled = (await w.orch.call<{ runs: RunStatus[] }>('plan_status', { run_id: started.run_id })).runs[0];
      assert.equal(cancelled.reason, `cancelled by person:${os.userInfo().username}`);
      assert.deepEqual(await executionsOf(w.orch, t3), [], 'the third task never ran');
      // The Board's strip lists runs going on only: the cancelled one has left it.
      await wb.runCommand('Agent Ledger: Open Board');
      const again = await viewFrame(wb.page, 'board', 30_000);
      await again.locator('[data-testid=total]').filter({ hasText: /cards/ }).waitFor({ timeout: 20_000 });
      assert.equal(await again.locator('[data-testid=plan-run]').count(), 0);
      await wb.screenshot('agent-ledger-plan-run-cancelled');
    });
  },
);
