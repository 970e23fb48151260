// Issue 5's acceptance in the real workbench, VSIX installed: a scripted agent (the MCP SDK over
// stdio, the orchestrator of test/mcp/pipelineDriver.ts) drives a pipeline to checkpoint A and
// cannot pass it by itself; the Pipelines view shows the wait (highlighted row, activity-bar
// badge, notification); a person clicks Approve in the pipeline webview; pipeline_next_action
// then hands out the next phase, and the view shows it. Screenshots of the tree and the webview
// before and after land in test-results/e2e/screenshots/agent-ledger-pipeline-*.png.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { connect } from '../../helpers/mcpClient';
import type { LedgerClient } from '../../helpers/mcpClient';
import { drive, start, twoTasks } from '../../mcp/pipelineDriver';
import type { Action } from '../../mcp/pipelineDriver';
import { BrowserSession, Workbench } from '../harness/browser';
import { CodeServer } from '../harness/codeServer';
import type { PackagedExtension } from './extensionPackage';
import { createWorkspace } from './workspace';
import { activeTab, treeRow, webviewFrame } from './workbenchLedger';

const title = 'Add retries to the HTTP client';

/** Collapses the container's other views so the Pipelines view has the side bar's height. */
async function showOnlyPipelines(page: Page): Promise<void> {
  const headers = page.locator('.part.sidebar .pane-header');
  await headers.filter({ hasText: 'Pipelines' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  for (const header of await headers.all()) {
    const expanded = (await header.getAttribute('aria-expanded')) === 'true';
    const isPipelines = /pipelines/i.test(await header.innerText());
    if (expanded !== isPipelines) await header.click();
  }
}

/** Drags the side bar's edge to the right, so the rows' descriptions show in the screenshots. */
async function widenSidebar(page: Page, by: number): Promise<void> {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box) return;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width + 1, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width + 1 + by, y, { steps: 5 });
  await page.mouse.up();
  // Away from the sash, which stays highlighted while hovered.
  await page.mouse.move(box.x + box.width + by + 200, box.y + 40);
}

export function describePipelineJourney(pkg: () => PackagedExtension): void {
  describe(
    'a pipeline checkpoint approved in the workbench (VSIX installed, driven like a person)',
    { timeout: 300_000 },
    () => {
      let server: CodeServer;
      let browser: BrowserSession;
      let wb: Workbench;
      let ws = '';
      let agent: LedgerClient;
      let workspace = '';
      const shot = (name: string): Promise<string> => wb.screenshot(`agent-ledger-pipeline-${name}`);
      const state = (): { current_phase: string; decisions: Record<string, unknown>[] } =>
        JSON.parse(readFileSync(path.join(ws, workspace, 'state.json'), 'utf8'));

      before(async () => {
        ws = createWorkspace('al-e2e-pipeline-', false);
        server = CodeServer.create({ name: 'agent-ledger-pipeline' });
        await server.installExtension(pkg().vsixPath);
        await server.start();
        browser = await BrowserSession.launch({
          consoleLogFile: path.join(server.runDir, 'browser-console.log'),
          viewport: { width: 1400, height: 1000 },
        });
        wb = await Workbench.open(await browser.page(), server.workbenchUrl(ws));
        await wb.openViewContainer('Agent Ledger');
        await showOnlyPipelines(wb.page);
        await widenSidebar(wb.page, 260);
      });

      after(async () => {
        await wb?.screenshot('agent-ledger-pipeline-final').catch(() => undefined);
        await agent?.close().catch(() => undefined);
        await browser?.close();
        await server?.stop();
        if (ws) rmSync(ws, { recursive: true, force: true });
      });

      it('the agent drives the pipeline to checkpoint A and cannot pass it by itself', async () => {
        // The agent's own MCP server process (dist/cli.js, the build the VSIX was packaged from), as Claude Code would run it.
        agent = await connect(ws);
        ({ workspace } = await start(agent, title, { effort: 'M', use_current_branch: true }));
        const stopAt = (a: Action): 'stop' | void => (a.type === 'checkpoint' ? 'stop' : undefined);
        const { last } = await drive(agent, ws, workspace, {
          tasksMd: twoTasks,
          verdicts: { 'review-design.md': ['APPROVE_WITH_NOTES'] },
          onAction: stopAt,
        });
        assert.equal(last.type, 'checkpoint');
        assert.equal(last.name, 'checkpoint-a');
        const again = await agent.call<Action>('pipeline_next_action', { workspace });
        assert.equal(again.name, 'checkpoint-a', 'the checkpoint stays the next action');
        const refused = await agent.fail('pipeline_next_action', { workspace, user_response: 'approve' });
        assert.equal(refused.reason, 'InvalidStatus');
        assert.equal(refused.data?.reason, 'human_decision_required');
        assert.equal(state().current_phase, 'checkpoint-a');
      });

      it('the Pipelines view shows the waiting checkpoint, with a badge on the activity bar and a notification', async () => {
        await treeRow(wb.page, /Human Reviews Design\s*waits for your decision/).waitFor({
          state: 'visible',
          timeout: 30_000,
        });
        await treeRow(wb.page, new RegExp(`${title}\\s*waits for you: Checkpoint A`)).waitFor({
          state: 'visible',
          timeout: 5_000,
        });
        await treeRow(wb.page, /Design Review.*APPROVE_WITH_NOTES · 1 finding/).waitFor({
          state: 'visible',
          timeout: 5_000,
        });
        const badge = wb.page
          .locator('.part.activitybar .action-item')
          .filter({ has: wb.page.locator('a[aria-label^="Agent Ledger"]') })
          .locator('.badge-content');
        await badge.filter({ hasText: /^1$/ }).waitFor({ state: 'visible', timeout: 10_000 });
        const toast = await wb.waitForNotification(
          `Pipeline "${title}" waits for your decision at Checkpoint A: Human Reviews Design`,
          15_000,
        );
        for (const name of ['Open', 'Approve', 'Reject…'])
          await toast.getByRole('button', { name, exact: true }).waitFor({ state: 'visible' });
        await shot('tree-waiting');
        // Decided in the webview next: the toast would cover it in the screenshots.
        await wb.runCommand('Notifications: Clear All Notifications');
      });

      it('Approve in the pipeline webview passes checkpoint A, and pipeline_next_action moves on to Task Decomposition', async () => {
        await treeRow(wb.page, /Human Reviews Design\s*waits for your decision/).click();
        const frame = webviewFrame(wb.page);
        const box = frame.locator('[data-testid=decision]');
        await box.waitFor({ state: 'visible', timeout: 20_000 });
        assert.match(await box.innerText(), /Checkpoint A: Human Reviews Design — waits for your decision/);
        const page = await frame.locator('body').innerText();
        for (const expected of [
          'Situation Analysis',
          'APPROVE_WITH_NOTES',
          'MINOR',
          'Consider adding error context to log lines',
          'Metrics',
          'design.md',
          'No checkpoint decided yet.',
        ]) {
          assert.ok(page.includes(expected), `the webview lacks "${expected}":\n${page}`);
        }
        // Requesting changes needs a comment: without one nothing is sent.
        await box.getByRole('button', { name: 'Request changes', exact: true }).click();
        await box
          .locator('[data-testid=decision-status]')
          .filter({ hasText: 'Say what should change' })
          .waitFor({ state: 'visible', timeout: 5_000 });
        assert.equal(state().current_phase, 'checkpoint-a');
        await frame.locator('#decision-comment').fill('The design is right; go ahead');
        await shot('webview-waiting');

        await box.getByRole('button', { name: 'Approve', exact: true }).click();
        await frame
          .locator('[data-testid=decision-result]')
          .filter({ hasText: 'Checkpoint A approved — the pipeline continues at Task Decomposition.' })
          .waitFor({ state: 'visible', timeout: 10_000 });
        await box.waitFor({ state: 'detached', timeout: 10_000 });
        const decided = state();
        assert.equal(decided.current_phase, 'phase-4');
        assert.deepEqual(
          decided.decisions.map((d) => [d.name, d.decision, d.comment, d.decided_by, d.via]),
          [['checkpoint-a', 'approve', 'The design is right; go ahead', os.userInfo().username, 'editor']],
        );

        const nextAction = await agent.call<Action>('pipeline_next_action', { workspace });
        assert.equal(nextAction.type, 'spawn_agent');
        assert.equal(nextAction.phase, 'phase-4');
        assert.equal(nextAction.display_message, 'Phase 4: Task Decomposition');

        await treeRow(wb.page, /Task Decomposition\s*running/).waitFor({ state: 'visible', timeout: 10_000 });
        await treeRow(wb.page, /Human Reviews Design\s*approved by/).waitFor({ state: 'visible', timeout: 5_000 });
        await treeRow(wb.page, new RegExp(`${title}\\s*at Task Decomposition`)).waitFor({
          state: 'visible',
          timeout: 5_000,
        });
        await wb.page
          .locator('.part.activitybar .badge-content')
          .filter({ hasText: /^1$/ })
          .waitFor({ state: 'hidden', timeout: 5_000 });
        await frame
          .locator('li.phase[data-phase="phase-4"] [data-testid=phase-state]')
          .filter({ hasText: 'running' })
          .waitFor({ state: 'visible', timeout: 10_000 });
        const history = await frame.locator('[data-testid=decisions]').innerText();
        assert.match(
          history,
          /Checkpoint A: Human Reviews Design\s+approve\s+\S+\s+editor\s+The design is right; go ahead/,
        );
        await shot('after-approve');
        await frame.locator('[data-testid=decisions]').scrollIntoViewIfNeeded();
        await shot('webview-findings-metrics-decisions');
      });

      it('opens an artifact from the webview in the editor', async () => {
        await webviewFrame(wb.page).locator('li.phase[data-phase="phase-3"] a.artifact[data-name="design.md"]').click();
        await activeTab(wb.page).filter({ hasText: 'design.md' }).waitFor({ state: 'visible', timeout: 15_000 });
        await shot('artifact');
      });
    },
  );
}
