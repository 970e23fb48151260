// Issue 11 in the editor, VSIX installed, driven like a person in the real workbench: the Board
// (columns, a card moving live when an agent's own MCP server starts the task, drag to Cancel and
// to an agent changing the store, click for the detail; cost, a pending handoff, the warning on two
// overlapping running tasks, Approve on a review card; the Explorer's pressure badges; the web board beside it,
// in step both ways), the plan graph of a workflow drawn as a
// DAG, the Blackboard view listing a key an MCP server wrote, and the board's first paint and live
// update at 2,000 tasks. Screenshots: test-results/e2e/screenshots/agent-ledger-board-*.png.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Locator, Page } from 'playwright-core';
import { connect } from '../../helpers/mcpClient';
import type { LedgerClient } from '../../helpers/mcpClient';
import { createServices } from '../../../src/app/services';
import type { Services } from '../../../src/app/services';
import { BrowserSession, Workbench } from '../harness/browser';
import { CodeServer } from '../harness/codeServer';
import type { PackagedExtension } from './extensionPackage';
import { createWorkspace } from './workspace';
import { startUi } from '../harness/uiProcess';
import { activeTab, eventually, treeRow } from './workbenchLedger';
import { addManyTasks, seedBoard } from './boardSeed';
import type { BoardSeed } from './boardSeed';

/** The content frame of the webview whose page renders `view` (`<body data-view>`). */
export async function viewFrame(page: Page, view: string, timeoutMs = 20_000): Promise<Frame> {
  return eventually(
    `the ${view} webview`,
    async () => {
      for (const f of page.frames()) {
        if (
          await f.evaluate(`document.body && document.body.dataset.view`).then(
            (v) => v === view,
            () => false,
          )
        )
          return f;
      }
      return undefined;
    },
    timeoutMs,
  );
}

/** A card in a column of the board. */
const card = (frame: Frame, column: string, taskId: number): Locator =>
  frame.locator(`[data-column=${column}] [data-card="task-${taskId}"]`);

/**
 * Drags `from` onto `to` with the mouse (Playwright's drag and drop into the webview's nested
 * frame). Should the drop not land, the same DOM drag events (dragstart, dragover, drop, dragend)
 * are dispatched in the webview's page instead: the board's own handlers run either way. Says
 * which path landed.
 */
async function drag(
  frame: Frame,
  from: Locator,
  to: Locator,
  landed: () => Promise<boolean>,
): Promise<'mouse' | 'events'> {
  await from.waitFor({ state: 'visible', timeout: 10_000 });
  const [fromSel, toSel] = [await selectorOf(from), await selectorOf(to)];
  await from.dragTo(to, { timeout: 10_000 }).catch(() => undefined);
  if (
    await eventually('the drop to land', landed, 3_000).then(
      () => true,
      () => false,
    )
  )
    return 'mouse';
  // A string, not a function: tsx's transform would add helpers the page does not have.
  await frame.evaluate(`(() => {
    const src = document.querySelector(${JSON.stringify(fromSel)});
    const dst = document.querySelector(${JSON.stringify(toSel)});
    const dt = new DataTransfer();
    src.dispatchEvent(new DragEvent('dragstart', { bubbles: true, dataTransfer: dt }));
    dst.dispatchEvent(new DragEvent('dragenter', { bubbles: true, cancelable: true, dataTransfer: dt }));
    dst.dispatchEvent(new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: dt }));
    dst.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt }));
    src.dispatchEvent(new DragEvent('dragend', { bubbles: true, dataTransfer: dt }));
  })()`);
  const ok = await eventually('the drop to land', landed, 10_000).then(
    () => true,
    () => false,
  );
  if (!ok)
    throw new Error(
      `the drop did not land (board says: "${await frame
        .locator('[data-testid=acted]')
        .innerText()
        .catch(() => '?')}")`,
    );
  return 'events';
}

async function selectorOf(l: Locator): Promise<string> {
  for (const attr of ['data-card', 'data-testid', 'data-agent']) {
    const value = await l.getAttribute(attr);
    if (value) return `[${attr}="${value}"]`;
  }
  throw new Error('no selector for the drag target');
}

export const boardFigures: string[] = [];

export function describeBoardJourney(pkg: () => PackagedExtension): void {
  describe(
    'the Board, the plan graph and the Blackboard view (VSIX installed, driven like a person)',
    { timeout: 420_000 },
    () => {
      let server: CodeServer;
      let browser: BrowserSession;
      let wb: Workbench;
      let ws = '';
      let services: Services;
      let agent: LedgerClient;
      let seed: BoardSeed;
      const shot = (name: string): Promise<string> => wb.screenshot(`agent-ledger-board-${name}`);
      const task = (id: number): Promise<Record<string, unknown>> => agent.call('task_get', { id });

      before(async () => {
        ws = createWorkspace('al-e2e-board-', false);
        services = await createServices({ workspace: ws });
        seed = await seedBoard(services.engine);
        server = CodeServer.create({ name: 'agent-ledger-board' });
        await server.installExtension(pkg().vsixPath);
        await server.start();
        browser = await BrowserSession.launch({
          consoleLogFile: path.join(server.runDir, 'browser-console.log'),
          viewport: { width: 1600, height: 1000 },
        });
        wb = await Workbench.open(await browser.page(), server.workbenchUrl(ws));
        agent = await connect(ws, ['--enable-orchestrator']);
      });

      after(async () => {
        await wb?.screenshot('agent-ledger-board-final').catch(() => undefined);
        await agent?.close().catch(() => undefined);
        services?.dispose();
        await browser?.close();
        await server?.stop();
        if (ws) rmSync(ws, { recursive: true, force: true });
      });

      it('Open Board shows every task in its column, with its agent, client and last milestone', async () => {
        await wb.runCommand('Agent Ledger: Open Board');
        const frame = await viewFrame(wb.page, 'board');
        await card(frame, 'in_progress', seed.build).waitFor({ state: 'visible', timeout: 30_000 });
        for (const [column, id] of [
          ['done', seed.design],
          ['open', seed.test],
          ['ready', seed.docs],
          ['ready', seed.stale],
          ['needs_person', seed.review],
        ] as const) {
          await card(frame, column, id).waitFor({ state: 'visible', timeout: 5_000 });
        }
        const build = await card(frame, 'in_progress', seed.build).innerText();
        assert.match(build, /Build the checkout/);
        assert.match(build, /coder \(claude\)/);
        assert.match(build, /Compiling the cart/);
        assert.equal(
          await card(frame, 'in_progress', seed.build).locator('[data-testid=cost]').innerText(),
          '$0.05',
          'the sum of its runs: 0.0421 + 0.01',
        );
        assert.equal(
          await card(frame, 'in_progress', seed.build).locator('[data-testid=handoff]').innerText(),
          'handoff coder → reviewer',
        );
        assert.equal(
          await card(frame, 'done', seed.design).locator('[data-testid=cost]').innerText(),
          '',
          'no cost reported: blank',
        );
        assert.equal(
          await card(frame, 'in_progress', seed.build).locator('[data-testid=overlap]').count(),
          0,
          'nothing else runs yet',
        );
        assert.match(await card(frame, 'open', seed.test).innerText(), new RegExp(`waits for task-${seed.build}`));
        assert.match(await card(frame, 'needs_person', seed.review).innerText(), /touches the payment keys/);
        await shot('columns');
      });

      it('a card moves live when an agent starts its task from its own MCP server', async () => {
        const frame = await viewFrame(wb.page, 'board');
        const started = Date.now();
        await agent.call('start_task', {
          task_id: seed.docs,
          workflow_id: seed.workflowId,
          name: 'Document the checkout',
          goal: 'Write the checkout docs',
          areas: ['src/app.ts'],
        });
        await card(frame, 'in_progress', seed.docs).waitFor({ state: 'visible', timeout: 15_000 });
        boardFigures.push(`card moved after another process's write: ${Date.now() - started} ms (7 tasks)`);
        assert.equal(await card(frame, 'ready', seed.docs).count(), 0);
      });

      it('two running tasks that may touch the same files warn on both cards, naming each other and the paths', async () => {
        const frame = await viewFrame(wb.page, 'board');
        // Build declared src/**; Docs was started above on src/app.ts (its mark in the field).
        const onBuild = card(frame, 'in_progress', seed.build).locator('[data-testid=overlap]');
        const onDocs = card(frame, 'in_progress', seed.docs).locator('[data-testid=overlap]');
        await onBuild.waitFor({ state: 'visible', timeout: 15_000 });
        assert.equal(await onBuild.innerText(), `⚠ overlaps task-${seed.docs} on src/**, src/app.ts`);
        assert.equal(await onDocs.innerText(), `⚠ overlaps task-${seed.build} on src/app.ts, src/**`);
        assert.match(
          (await card(frame, 'in_progress', seed.build).getAttribute('title')) ?? '',
          new RegExp(`same files as task-${seed.docs} "Document the checkout"`),
        );
        await shot('overlap');
      });

      it('the Explorer shows the pressure of running tasks on files and folders, with a badge and the tasks in its tooltip', async () => {
        // Build's areas enter the field too (the runner or start_task mark them; here another process does).
        await services.scheduling.stigmergy.markTask(seed.build, ['src/**']);
        await wb.openViewContainer('Explorer');
        const row = (name: string): Locator =>
          wb.page
            .locator('.part.sidebar .monaco-list-row')
            .filter({ has: wb.page.locator('.label-name', { hasText: new RegExp(`^${name.replace('.', '\\.')}$`) }) })
            .first();
        await row('src').waitFor({ state: 'visible', timeout: 15_000 });
        if ((await row('src').getAttribute('aria-expanded')) !== 'true') await row('src').click();
        await row('app.ts').waitFor({ state: 'visible', timeout: 10_000 });
        // The badge is drawn by a CSS ::after rule VS Code generates for the decoration. (A string: tsx's transform would add helpers the page does not have.)
        const badges = (name: string): Promise<string[] | null> =>
          wb.page.evaluate(`(() => {
          const row = [...document.querySelectorAll('.part.sidebar .monaco-list-row')].find((r) => r.querySelector('.label-name')?.textContent?.trim() === ${JSON.stringify(name)});
          if (!row) return null;
          return [...row.querySelectorAll('*')].map((e) => getComputedStyle(e, '::after').content).filter((c) => c && c !== 'none' && c !== 'normal' && c !== '""');
        })()`) as Promise<string[] | null>;
        const folder = await eventually(
          'the src folder badge',
          async () => ((await badges('src'))?.includes('"S"') ? badges('src') : undefined),
          15_000,
        );
        const file = await eventually(
          'the app.ts badge',
          async () => ((await badges('app.ts'))?.includes('"S"') ? badges('app.ts') : undefined),
          15_000,
        );
        assert.ok(
          folder?.includes('"S"') && file?.includes('"S"'),
          `badges: src ${folder?.join(' ')}, app.ts ${file?.join(' ')}`,
        );
        assert.deepEqual(await badges('util.ts'), [], 'a file no task touches has no badge');
        // The tooltip: the Explorer appends a decoration's tooltip to the row's title ("<path> • <tooltip>"), which VS Code
        // puts on the label's aria-label and shows in the hover. The label is read as rendered, after the roll-up reached it.
        const label = (name: string): Promise<string | null> =>
          row(name).locator('.monaco-icon-label').first().getAttribute('aria-label');
        const fileTitle = await eventually(
          'the app.ts tooltip',
          async () => ((await label('app.ts'))?.includes(' • ') ? label('app.ts') : undefined),
          15_000,
        );
        assert.match(
          fileTitle ?? '',
          new RegExp(`src/app\\.ts • in the scope of task-${seed.docs} \\([^)]*running\\): Document the checkout`),
          `app.ts label: ${fileTitle}`,
        );
        const folderTitle = await eventually(
          'the src tooltip',
          async () => {
            // Both tasks' marks reached the roll-up: Build's src/** (marked above) and Docs' src/app.ts.
            const now = await label('src');
            return now?.includes(`task-${seed.build} (`) && now.includes(`task-${seed.docs} (`) ? now : undefined;
          },
          15_000,
        );
        assert.match(folderTitle ?? '', /src • in the scope of /, `src label: ${folderTitle}`);
        for (const named of [`task-${seed.build} (`, `task-${seed.docs} (`])
          assert.ok(folderTitle?.includes(named), `src label names ${named}: ${folderTitle}`);
        assert.ok(!((await label('util.ts')) ?? '').includes(' • '), 'a file no task touches has no pressure tooltip');
        // And the hover a person sees: the pointer on the label itself (the row is wider than its label), after the hover delay.
        await wb.page.mouse.move(0, 0);
        await row('app.ts').locator('.label-name').first().hover();
        const hover = wb.page
          .locator('.monaco-hover, .workbench-hover')
          .filter({ hasText: /in the scope of task-/ })
          .first();
        const tooltip = await hover.waitFor({ state: 'visible', timeout: 8_000 }).then(
          () => hover.innerText(),
          () => '(no hover shown)',
        );
        boardFigures.push(
          `explorer tooltip of src/app.ts: label "${fileTitle}", hover ${tooltip.replace(/\s+/g, ' ')}`,
        );
        if (tooltip !== '(no hover shown)')
          assert.match(tooltip, new RegExp(`task-${seed.docs} \\([^)]*running\\): Document the checkout`));
        await shot('explorer-pressure');
      });

      it('dragging a card onto Cancel cancels the task in the store; onto an agent assigns it', async () => {
        const frame = await viewFrame(wb.page, 'board');
        const how = await drag(
          frame,
          card(frame, 'open', seed.test),
          frame.locator('[data-testid=drop-cancel]'),
          async () => (await task(seed.test)).status === 'cancelled',
        );
        await card(frame, 'failed', seed.test).waitFor({ state: 'visible', timeout: 10_000 });
        assert.match(await frame.locator('[data-testid=acted]').innerText(), new RegExp(`task-${seed.test} cancelled`));
        const how2 = await drag(
          frame,
          card(frame, 'ready', seed.stale),
          frame.locator('[data-agent="writer"]'),
          async () => (await task(seed.stale)).assigneeName === 'writer',
        );
        await eventually('the card to show its new agent', async () =>
          /writer/.test(await card(frame, 'ready', seed.stale).innerText()),
        );
        boardFigures.push(`drops landed by: ${how} (cancel), ${how2} (assign)`);
        await shot('after-drag');
      });

      it('VS Code and the web board in step: a card cancelled in each shows in the other within a second', async () => {
        const fromEditor = await agent.call<{ id: number }>('task_create', { title: 'Cancelled in VS Code' });
        const fromBrowser = await agent.call<{ id: number }>('task_create', { title: 'Cancelled in the browser' });
        const ui = await startUi(ws);
        const web = await browser.newPage();
        try {
          await web.goto(ui.url);
          const frame = await viewFrame(wb.page, 'board');
          for (const id of [fromEditor.id, fromBrowser.id]) {
            await web.locator(`[data-card="task-${id}"]`).waitFor({ timeout: 15_000 });
            await frame.locator(`[data-card="task-${id}"]`).waitFor({ state: 'visible', timeout: 15_000 });
          }

          // A drop in VS Code: the browser's page shows it.
          let cancelledAt = 0;
          const shownInBrowser = web
            .locator(`[data-column=failed] [data-card="task-${fromEditor.id}"]`)
            .waitFor({ timeout: 15_000 })
            .then(
              () => Date.now(),
              () => NaN,
            );
          await drag(
            frame,
            frame.locator(`[data-card="task-${fromEditor.id}"]`),
            frame.locator('[data-testid=drop-cancel]'),
            async () => {
              const done = (await task(fromEditor.id)).status === 'cancelled';
              if (done && !cancelledAt) cancelledAt = Date.now();
              return done;
            },
          );
          const browserMs = Math.max(0, (await shownInBrowser) - cancelledAt);
          assert.ok(Number.isFinite(browserMs), 'the browser showed the task in "Failed / cancelled"');

          // A drop in the browser: VS Code's Board shows it.
          const shownInEditor = card(frame, 'failed', fromBrowser.id)
            .waitFor({ state: 'visible', timeout: 15_000 })
            .then(
              () => Date.now(),
              () => NaN,
            );
          await web.dragAndDrop(`[data-card="task-${fromBrowser.id}"]`, '[data-testid=drop-cancel]');
          const browserCancelled = await eventually(
            'the browser’s cancel in the ledger',
            async () => (await task(fromBrowser.id)).status === 'cancelled' && Date.now(),
          );
          const editorMs = Math.max(0, (await shownInEditor) - browserCancelled);
          assert.ok(Number.isFinite(editorMs), 'VS Code showed the task in "Failed / cancelled"');
          boardFigures.push(
            `in step: VS Code → browser ${browserMs} ms, browser → VS Code ${editorMs} ms (from the ledger's answer)`,
          );
          // Seen by the test's poll of the ledger (every ~100 ms): the figures are upper bounds.
          assert.ok(
            browserMs <= 1000,
            `the browser showed VS Code's cancel ${browserMs} ms after it was in the ledger`,
          );
          assert.ok(editorMs <= 1000, `VS Code showed the browser's cancel ${editorMs} ms after it was in the ledger`);
          const editorShot = await shot('in-step');
          await web.screenshot({ path: editorShot.replace(/\.png$/, '-browser.png') });
        } finally {
          await web.close();
          ui.child.kill('SIGTERM');
        }
      });

      it('Approve on a "needs a person" review card records the review and the card goes back to its column', async () => {
        await wb.runCommand('Agent Ledger: Open Board');
        const frame = await viewFrame(wb.page, 'board');
        const review = card(frame, 'needs_person', seed.review);
        await review.waitFor({ state: 'visible', timeout: 10_000 });
        await review.locator('[data-testid=review-approved]').click();
        await card(frame, 'done', seed.review).waitFor({ state: 'visible', timeout: 10_000 });
        assert.match(
          await frame.locator('[data-testid=acted]').innerText(),
          new RegExp(`task-${seed.review} review approved`),
        );
        const row = await services.engine.read((db) =>
          db.get<{ verdict: string }>('SELECT verdict FROM task_reviews WHERE task_id = ?', [seed.review]),
        );
        assert.equal(row?.verdict, 'approved');
      });

      it('clicking a card opens the task detail', async () => {
        const frame = await viewFrame(wb.page, 'board');
        await card(frame, 'in_progress', seed.build).click();
        await activeTab(wb.page)
          .filter({ hasText: `task-${seed.build}` })
          .waitFor({ state: 'visible', timeout: 15_000 });
      });

      it("the workflow's plan graph is drawn as a DAG with live task states, opened from the workflow in the Tasks view", async () => {
        await wb.openViewContainer('Agent Ledger');
        const row = treeRow(wb.page, /^Checkout/);
        await row.waitFor({ state: 'visible', timeout: 20_000 });
        await row.hover();
        await row.locator('.action-label[aria-label="Open Plan Graph"]').click();
        const frame = await viewFrame(wb.page, 'planGraph');
        const graph = frame.locator('[data-testid=plan-graph]');
        await graph.waitFor({ state: 'visible', timeout: 20_000 });
        assert.equal(await graph.locator('g.node').count(), 4);
        assert.equal(await graph.locator('polyline.edge').count(), 3);
        assert.equal(
          await graph.locator(`polyline.edge[data-from="task-${seed.design}"][data-to="task-${seed.build}"]`).count(),
          1,
        );
        await graph
          .locator(`g.node.status-in_progress[data-node="task-${seed.docs}"]`)
          .waitFor({ state: 'visible', timeout: 5_000 });
        await graph
          .locator(`g.node.status-cancelled[data-node="task-${seed.test}"]`)
          .waitFor({ state: 'visible', timeout: 5_000 });
        // Live: the agent completes Docs (it started it above, from its own server); the node turns done.
        await agent.call('complete_task', {
          task_id: seed.docs,
          status: 'success',
          outcome: { summary: 'Documented the checkout' },
        });
        await graph
          .locator(`g.node.status-done[data-node="task-${seed.docs}"]`)
          .waitFor({ state: 'visible', timeout: 15_000 });
        await shot('plan-graph');
      });

      it('the Blackboard view lists a key an MCP server wrote with bb_set, with its value and expiry', async () => {
        await agent.call('bb_set', { key: 'plan:owner', value: { agent: 'coder', step: 2 }, ttl_ms: 3_600_000 });
        const header = wb.page.locator('.part.sidebar .pane-header').filter({ hasText: 'Blackboard' }).first();
        await header.waitFor({ state: 'visible', timeout: 15_000 });
        if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
        await treeRow(wb.page, /^plan\s*1 key/).waitFor({ state: 'visible', timeout: 15_000 });
        const entry = treeRow(wb.page, /plan:owner/);
        await entry.waitFor({ state: 'visible', timeout: 15_000 });
        assert.match(await entry.innerText(), /"agent":"coder".*expires in (59m|1h)/s);
        await shot('blackboard');
      });

      it('first paint and live update of the board at 2,000 tasks', async () => {
        await addManyTasks(services.engine, 2_000);
        await wb.runCommand('View: Close All Editors');
        const t0 = Date.now();
        await wb.runCommand('Agent Ledger: Open Board');
        const frame = await viewFrame(wb.page, 'board', 30_000);
        // 2,000 more than the journey wrote before (the seed, and what earlier steps created).
        const total = (await services.engine.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM tasks')))!.n;
        assert.ok(total >= 2006, `${total} tasks`);
        await frame
          .locator('[data-testid=total]')
          .filter({ hasText: new RegExp(`${total} cards`) })
          .waitFor({ state: 'visible', timeout: 30_000 });
        const paintMs = await eventually(
          'the paint figure',
          async () => frame.locator('#app').getAttribute('data-paint-ms'),
          10_000,
        );
        const firstPaint = Date.now() - t0;
        const inDom = await frame.locator('article.card').count();
        boardFigures.push(
          `first paint at ${total} tasks: ${firstPaint} ms from the command to the cards on screen (webview's own: ${paintMs} ms after its page started); ${inDom} cards in the DOM`,
        );
        assert.ok(inDom < 200, `the board keeps its DOM small (${inDom} cards)`);
        const started = Date.now();
        await agent.call('start_task', {
          task_id: seed.stale,
          workflow_id: seed.workflowId,
          name: 'Try the old SDK',
          goal: 'See whether the old SDK still works',
        });
        await card(frame, 'in_progress', seed.stale).waitFor({ state: 'visible', timeout: 15_000 });
        boardFigures.push(
          `live update at ${total} tasks: ${Date.now() - started} ms from another process's write to the card in its new column`,
        );
        await shot('2000');
      });
    },
  );
}
