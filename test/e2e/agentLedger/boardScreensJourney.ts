// The Board as a person sees it on a laptop: 1280×800, the side bar open, light and dark themes,
// VSIX installed. Nothing clipped (columns, the review buttons), titles on two lines, checkpoint
// cards named as in the Pipelines tree, cancelled tasks under "Failed / cancelled", and assign and
// cancel without dragging (the card's menu, by right-click and by keyboard).
// Screenshots: test-results/e2e/screenshots/agent-ledger-board-1280-<theme>-*.png.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Locator } from 'playwright-core';
import { createServices } from '../../../src/app/services';
import type { Services } from '../../../src/app/services';
import { BrowserSession, Workbench } from '../harness/browser';
import { CodeServer } from '../harness/codeServer';
import type { PackagedExtension } from './extensionPackage';
import { createWorkspace } from './workspace';
import { eventually, treeRow } from './workbenchLedger';
import { seedBoard } from './boardSeed';
import type { BoardSeed } from './boardSeed';
import { viewFrame } from './boardJourney';

const themes = { light: 'Default Light Modern', dark: 'Default Dark Modern' } as const;

const longTitle = 'Migrate the payment provider webhooks to the signed v2 endpoint and retire the old one';

/** What the board's layout looks like from inside its page (a string: tsx's helpers are not in the page). */
interface Layout {
  width: number;
  columns: { id: string; left: number; right: number; nameCut: boolean }[];
  buttons: { text: string; right: number; cardRight: number; cut: boolean }[];
  longTitleLines: number;
}

const measure = `(() => {
  const width = document.documentElement.clientWidth;
  const columns = [...document.querySelectorAll('.column')].map((c) => {
    const r = c.getBoundingClientRect();
    const name = c.querySelector('header .name');
    return { id: c.dataset.column, left: r.left, right: r.right, nameCut: name.scrollWidth > name.clientWidth + 1 || name.getBoundingClientRect().right > r.right + 0.5 };
  });
  const buttons = [...document.querySelectorAll('.card .card-action')].map((b) => {
    const r = b.getBoundingClientRect();
    const card = b.closest('.card').getBoundingClientRect();
    return { text: b.textContent, right: r.right, cardRight: card.right, cut: b.scrollWidth > b.clientWidth + 1 };
  });
  const title = [...document.querySelectorAll('.card-title')].find((t) => t.textContent === ${JSON.stringify(longTitle)});
  const lh = title ? parseFloat(getComputedStyle(title).lineHeight) || 16 : 16;
  return { width, columns, buttons, longTitleLines: title ? Math.round(title.getBoundingClientRect().height / lh) : 0 };
})()`;

async function addLongTask(services: Services): Promise<number> {
  return services.engine.write((tx) =>
    tx.insert("INSERT INTO tasks (title, status, areas, created_at, updated_at) VALUES (?, 'open', '[]', ?, ?)", [
      longTitle,
      '2026-11-23T10:00:07.000Z',
      '2026-11-23T10:00:07.000Z',
    ]),
  );
}

/** A pipeline stopped at its checkpoint A, as the pipeline tools leave one. */
async function addWaitingPipeline(services: Services): Promise<number> {
  const now = '2026-11-23T10:00:08.000Z';
  return services.engine.write((tx) =>
    tx.insert(
      `INSERT INTO pipelines (workspace, spec_name, title, source_type, effort, flow_template, status, current_phase, waiting, rev, created_at, updated_at)
       VALUES ('.specs/refund-flow', 'refund-flow', 'Refund flow', 'text', 'standard', 'standard', 'awaiting_human', 'checkpoint-a', ?, 1, ?, ?)`,
      [JSON.stringify({ kind: 'checkpoint', name: 'checkpoint-a' }), now, now],
    ),
  );
}

const cardIn = (frame: Frame, column: string, id: string): Locator =>
  frame.locator(`[data-column=${column}] [data-card="${id}"]`);

export function describeBoardScreens(pkg: () => PackagedExtension): void {
  for (const [theme, colorTheme] of Object.entries(themes)) {
    describe(`the Board at 1280×800 with the side bar open, ${theme} theme`, { timeout: 300_000 }, () => {
      let server: CodeServer;
      let browser: BrowserSession;
      let wb: Workbench;
      let ws = '';
      let services: Services;
      let seed: BoardSeed;
      let long = 0;
      let pipeline = 0;
      const shot = (name: string): Promise<string> => wb.screenshot(`agent-ledger-board-1280-${theme}-${name}`);
      const task = (id: number): Promise<{ status: string; assignee: string | null } | undefined> =>
        services.engine.read((db) =>
          db.get<{ status: string; assignee: string | null }>('SELECT status, assignee FROM tasks WHERE id = ?', [id]),
        );

      before(async () => {
        ws = createWorkspace(`al-e2e-board1280-${theme}-`, false);
        services = await createServices({ workspace: ws });
        seed = await seedBoard(services.engine);
        long = await addLongTask(services);
        pipeline = await addWaitingPipeline(services);
        // The workflow a pipeline opens for itself (empty: its phases are the Pipelines view's).
        await services.engine.write((tx) =>
          tx.insert(
            "INSERT INTO workflows (name, kind, created_at, updated_at) VALUES ('Pipeline: Refund flow', 'pipeline', ?, ?)",
            ['2026-11-23T10:00:09.000Z', '2026-11-23T10:00:09.000Z'],
          ),
        );
        server = CodeServer.create({
          name: `agent-ledger-board-1280-${theme}`,
          settings: { 'workbench.colorTheme': colorTheme },
        });
        await server.installExtension(pkg().vsixPath);
        await server.start();
        browser = await BrowserSession.launch({
          consoleLogFile: path.join(server.runDir, 'browser-console.log'),
          viewport: { width: 1280, height: 800 },
        });
        wb = await Workbench.open(await browser.page(), server.workbenchUrl(ws));
        await wb.openViewContainer('Agent Ledger');
      });

      after(async () => {
        services?.dispose();
        await browser?.close();
        await server?.stop();
        if (ws) rmSync(ws, { recursive: true, force: true });
      });

      it('every column fits, titles take two lines, the review buttons are whole, cancelled tasks are under "Failed / cancelled"', async () => {
        await wb.runCommand('Agent Ledger: Open Board');
        const frame = await viewFrame(wb.page, 'board');
        await frame.locator(`[data-card="task-${long}"]`).waitFor({ state: 'visible', timeout: 30_000 });
        assert.ok(await wb.page.locator('.part.sidebar').isVisible(), 'the side bar stays open');
        await shot('columns');
        const layout = (await frame.evaluate(measure)) as Layout;
        assert.equal(layout.columns.length, 6);
        for (const c of layout.columns)
          assert.ok(
            c.left >= 0 && c.right <= layout.width + 0.5,
            `column ${c.id} spans ${c.left}–${c.right} of ${layout.width} px`,
          );
        assert.ok(layout.buttons.length >= 2, 'the review card shows Approve and Dismiss');
        for (const b of layout.buttons)
          assert.ok(
            !b.cut && b.right <= b.cardRight + 0.5,
            `"${b.text}" is whole inside its card (${JSON.stringify(b)})`,
          );
        assert.equal(layout.longTitleLines, 2, 'a long title wraps onto a second line');
        const failed = frame.locator('[data-column=failed] > header');
        assert.match(await failed.innerText(), /Failed \/ cancelled/);
      });

      it('a checkpoint card is named as in the Pipelines tree, never by its raw id', async () => {
        const frame = await viewFrame(wb.page, 'board');
        const checkpoint = cardIn(frame, 'needs_person', `pipeline-${pipeline}`);
        await checkpoint.waitFor({ state: 'visible', timeout: 10_000 });
        const text = await checkpoint.innerText();
        assert.match(text, /Checkpoint A/);
        assert.doesNotMatch(text, /checkpoint-a/);
      });

      it('assign by keyboard (Shift+F10 on a focused card) and cancel by right-click, without dragging', async () => {
        const frame = await viewFrame(wb.page, 'board');
        const stale = cardIn(frame, 'ready', `task-${seed.stale}`);
        await stale.focus();
        await wb.page.keyboard.press('Shift+F10');
        const menu = frame.locator('[data-testid=card-menu]');
        await menu.waitFor({ state: 'visible', timeout: 5_000 });
        await shot('card-menu');
        const items = await menu.getByRole('menuitem').allInnerTexts();
        assert.ok(items.includes('Assign to writer'), `menu items: ${items.join(' | ')}`);
        assert.ok(items.includes('Cancel task'), `menu items: ${items.join(' | ')}`);
        // Through the keys alone: down to "Assign to writer", Enter.
        const target = items.indexOf('Assign to writer');
        for (let i = 0; i < target; i++) await wb.page.keyboard.press('ArrowDown');
        await wb.page.keyboard.press('Enter');
        await eventually(
          'the task to be assigned to writer',
          async () => (await task(seed.stale))?.assignee === 'writer',
        );
        await menu.waitFor({ state: 'hidden', timeout: 5_000 });

        await cardIn(frame, 'open', `task-${seed.test}`).click({ button: 'right' });
        await menu.waitFor({ state: 'visible', timeout: 5_000 });
        await menu.getByRole('menuitem', { name: 'Cancel task' }).click();
        await eventually('the task to be cancelled', async () => (await task(seed.test))?.status === 'cancelled');
        await cardIn(frame, 'failed', `task-${seed.test}`).waitFor({ state: 'visible', timeout: 10_000 });
        await shot('after-menu');
      });

      it('the Tasks view: state before the id, no pipeline listed as a workflow, Filter Tasks hides done tasks', async () => {
        const build = treeRow(wb.page, /Build the checkout/);
        await build.waitFor({ state: 'visible', timeout: 15_000 });
        assert.match(await build.innerText(), new RegExp(`Build the checkout\\s*in progress · task-${seed.build}`));
        assert.equal(
          await wb.page.locator('.part.sidebar .monaco-list-row').filter({ hasText: 'Pipeline: Refund flow' }).count(),
          0,
        );
        await treeRow(wb.page, /Design the checkout/).waitFor({ state: 'visible', timeout: 5_000 });
        await wb.runCommand('Agent Ledger: Filter Tasks…');
        const widget = wb.page.locator('.quick-input-widget').filter({ hasText: 'Filter Tasks' });
        await widget.waitFor({ state: 'visible', timeout: 10_000 });
        const option = widget.locator('.monaco-list-row').filter({ hasText: 'Hide done' });
        const checked = async (): Promise<boolean> => (await option.getAttribute('aria-checked')) === 'true';
        // The row, else its checkbox, else the keys (the row is the first and active one): whichever this build takes.
        await option.click({ timeout: 5_000 }).catch(() => undefined);
        if (!(await checked()))
          await option
            .locator('.monaco-custom-toggle, input[type=checkbox]')
            .first()
            .click({ force: true, timeout: 5_000 })
            .catch(() => undefined);
        if (!(await checked())) {
          await widget.locator('.quick-input-box input').focus();
          await wb.page.keyboard.press('Space');
        }
        await eventually('"Hide done" to be ticked', checked, 5_000);
        const ok = widget.locator('.monaco-button').filter({ hasText: /^OK$/ });
        if (await ok.isVisible()) await ok.click();
        else {
          await widget.locator('.quick-input-box input').focus();
          await wb.page.keyboard.press('Enter');
        }
        await eventually(
          'the done task to leave the Tasks view',
          async () =>
            (await wb.page
              .locator('.part.sidebar .monaco-list-row')
              .filter({ hasText: 'Design the checkout' })
              .count()) === 0,
          10_000,
        );
        assert.ok(await build.isVisible(), 'a running task stays');
        await wb.page
          .locator('.part.sidebar .pane-header')
          .filter({ hasText: 'hiding done' })
          .first()
          .waitFor({ state: 'visible', timeout: 5_000 });
        await shot('tasks-filtered');
      });

      it('the plan graph picker lists workflows, not pipelines; the graph fits the page and zooms', async () => {
        await wb.page.locator('.part.sidebar .composite.title').first().click();
        await wb.runCommand('Agent Ledger: Open Plan Graph');
        // The workflow picker, not the palette's list it replaces.
        await wb.page
          .locator('.quick-input-widget input[placeholder="Open the plan graph of which workflow?"]')
          .waitFor({ state: 'visible', timeout: 15_000 });
        const labels = await wb.quickPickLabels();
        assert.ok(labels.includes('Checkout'), `picker: ${labels.join(' | ')}`);
        assert.ok(!labels.some((l) => l.startsWith('Pipeline:')), `picker: ${labels.join(' | ')}`);
        await wb.quickPickItem('Checkout').click();
        const frame = await viewFrame(wb.page, 'planGraph');
        const graph = frame.locator('[data-testid=plan-graph]');
        await graph.waitFor({ state: 'visible', timeout: 20_000 });
        const size = async (): Promise<{ svg: number; page: number; zoom: string }> => ({
          svg: Number(await graph.getAttribute('width')),
          page: await frame.locator('[data-testid=graph-scroll]').evaluate((e) => e.clientWidth),
          zoom: await frame.locator('[data-testid=zoom]').innerText(),
        });
        await frame.locator('[data-testid=zoom-Fit]').click();
        const fit = await size();
        assert.ok(fit.svg <= fit.page && /\(fit\)/.test(fit.zoom), `fit: ${JSON.stringify(fit)}`);
        await frame.locator('[data-testid=zoom-out]').click();
        const out = await size();
        assert.ok(
          out.svg < fit.svg || fit.zoom.startsWith('25%'),
          `zoomed out: ${JSON.stringify(out)} from ${JSON.stringify(fit)}`,
        );
        await shot('plan-graph');
      });
    });
  }
}
