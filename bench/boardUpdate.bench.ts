// The editor's Board at 2,000 cards, against a 6-card Board measured in the same run: its first
// render and its update after one write, in the two halves the editor runs them —
// - the host (the extension, Node): board() read model, then BoardDeltas → the message it posts;
// - the webview: dist/webview.js (the Board's real code, with media/webview.css) in headless
//   Chromium, given that message as VS Code gives it (a `message` event); measured from the event
//   to the next frame (rAF, then a task: layout and paint done).
// The transfer between the two (VS Code serialises the message once) is not measured.
// Target: write → card in the page ≤ 300 ms (host + webview) at 2,000 cards.
// Usage: node --import tsx bench/boardUpdate.bench.ts [--tasks 2000] [--loads 5] [--writes 20]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { createServices } from '../src/app/services';
import type { Services } from '../src/app/services';
import type { BoardHostMessage, BoardModel } from '../src/shared/protocol';
import { BoardDeltas } from '../src/views/boardDeltas';
import { addManyTasks, seedBoard } from '../test/e2e/agentLedger/boardSeed';
import { ms, percentile, printTable, verdict } from './lib/report';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const tasks = Number(arg('--tasks', '2000'));
const loads = Number(arg('--loads', '5'));
const writes = Number(arg('--writes', '20'));
const root = path.resolve(__dirname, '..');

/** The webview page as the editor writes it (webviewPanelBase.ts), with acquireVsCodeApi as VS Code gives it. */
function pageFile(dir: string): string {
  const file = path.join(dir, 'board.html');
  writeFileSync(
    file,
    `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<link rel="stylesheet" href="${pathToFileURL(path.join(root, 'media', 'webview.css')).href}"></head>
<body data-view="board"><main id="app"></main>
<script>
  window.posted = [];
  let state;
  window.acquireVsCodeApi = () => ({ postMessage: (m) => window.posted.push(m), getState: () => state, setState: (s) => (state = s) });
  /** Delivers a host message; the time to run the view's handler, and to the frame after it. */
  window.deliver = (data) => new Promise((resolve) => {
    const t0 = performance.now();
    window.dispatchEvent(new MessageEvent('message', { data }));
    const script = performance.now() - t0;
    requestAnimationFrame(() => setTimeout(() => resolve({ script, frame: performance.now() - t0 }), 0));
  });
</script>
<script src="${pathToFileURL(path.join(root, 'dist', 'webview.js')).href}"></script></body></html>`,
  );
  return pathToFileURL(file).href;
}

interface Figures {
  /** Host: board() + the whole model's message. */
  firstHost: number[];
  /** Webview: the whole model → frame. */
  firstPage: number[];
  firstBytes: number;
  write: number[];
  /** Host after one write: board() + BoardDeltas.next. */
  updateHost: number[];
  /** Webview: the delta → frame. */
  updatePage: number[];
  updateScript: number[];
  updateBytes: number[];
}

async function hostMessage(services: Services, deltas: BoardDeltas): Promise<BoardHostMessage | null> {
  const snapshot = await services.board.board();
  const model: BoardModel = { folder: '/bench', folderName: 'bench', ...snapshot };
  return deltas.next(model);
}

async function openPage(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { posted: { type: string }[] }).posted.length > 0);
  return page;
}

const deliver = (page: Page, message: BoardHostMessage) =>
  page.evaluate(
    (m) => (window as unknown as { deliver(m: unknown): Promise<{ script: number; frame: number }> }).deliver(m),
    message,
  );

async function side(size: number, browser: Browser, url: string): Promise<Figures> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-ledger-board-update-bench-'));
  const services = await createServices({ workspace: dir });
  const f: Figures = {
    firstHost: [],
    firstPage: [],
    firstBytes: 0,
    write: [],
    updateHost: [],
    updatePage: [],
    updateScript: [],
    updateBytes: [],
  };
  try {
    await seedBoard(services.engine);
    if (size > 6) await addManyTasks(services.engine, size - 6);
    // First render: a fresh page each time (the first load warms the store and the browser).
    for (let i = 0; i < loads + 1; i++) {
      const page = await openPage(browser, url);
      const t0 = performance.now();
      const message = (await hostMessage(services, new BoardDeltas()))!;
      const host = performance.now() - t0;
      const { frame } = await deliver(page, message);
      const cards = await page.locator('[data-card]').count();
      if (cards === 0) throw new Error('the Board drew no card');
      if (i > 0) {
        f.firstHost.push(host);
        f.firstPage.push(frame);
        f.firstBytes = JSON.stringify(message).length;
      }
      await page.close();
    }
    // Updates: one page, one write at a time, the delta the editor would post.
    const page = await openPage(browser, url);
    const deltas = new BoardDeltas();
    await deliver(page, (await hostMessage(services, deltas))!);
    for (let i = 0; i < writes + 2; i++) {
      const w0 = performance.now();
      const task = await services.tasks.create({ title: `bench ${i}`, priority: 'high', type: 'task' });
      const t0 = performance.now();
      const message = await hostMessage(services, deltas);
      const host = performance.now() - t0;
      if (message?.type !== 'boardDelta') throw new Error(`expected a delta, got ${message?.type ?? 'nothing'}`);
      const { script, frame } = await deliver(page, message);
      if ((await page.locator(`[data-card="task-${task.id}"]`).count()) !== 1)
        throw new Error(`task-${task.id} is not on the page after its delta`);
      if (i < 2) continue; // warm-up
      f.write.push(t0 - w0);
      f.updateHost.push(host);
      f.updatePage.push(frame);
      f.updateScript.push(script);
      f.updateBytes.push(JSON.stringify(message).length);
    }
    await page.close();
    return f;
  } finally {
    await services.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-ledger-board-page-'));
  const browser = await chromium.launch({
    executablePath: process.env.E2E_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'],
  });
  try {
    const url = pageFile(dir);
    const base = await side(6, browser, url);
    const big = await side(tasks, browser, url);
    const p50 = (s: number[]) => percentile(s, 50);
    const withRatio = (s: number[], b: number[]) => `${ms(p50(s))} (${(p50(s) / p50(b)).toFixed(2)}×)`;
    const total = (f: Figures) => f.updateHost.map((h, i) => h + f.updatePage[i]);
    const first = (f: Figures) => f.firstHost.map((h, i) => h + f.firstPage[i]);
    const row = (size: number, f: Figures, b: Figures | undefined) => [
      size,
      b ? withRatio(f.firstHost, b.firstHost) : ms(p50(f.firstHost)),
      b ? withRatio(f.firstPage, b.firstPage) : ms(p50(f.firstPage)),
      `${(f.firstBytes / 1024).toFixed(0)} KiB`,
      ms(p50(f.write)),
      b ? withRatio(f.updateHost, b.updateHost) : ms(p50(f.updateHost)),
      b ? withRatio(f.updatePage, b.updatePage) : ms(p50(f.updatePage)),
      `${(p50(f.updateBytes) / 1024).toFixed(1)} KiB`,
      b ? withRatio(total(f), total(b)) : ms(p50(total(f))),
      ms(percentile(total(f), 95)),
      b ? verdict(p50(total(f)) <= 300) : '',
    ];
    printTable(
      `Board first render and update after one write, host (Node) + webview (headless Chromium), p50 ms of ${loads} loads / ${writes} writes (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`,
      [
        'cards',
        'first: host',
        'first: page',
        'first msg',
        'write',
        'update: host',
        'update: page',
        'delta msg',
        'update total',
        'total p95',
        '≤ 300 ms',
      ],
      [row(6, base, undefined), row(tasks, big, base)],
    );
    console.log(
      `\nfirst render total p50: 6 cards ${ms(p50(first(base)))} ms, ${tasks} cards ${ms(p50(first(big)))} ms; ` +
        `update script (the handler alone) p50: ${ms(p50(base.updateScript))} / ${ms(p50(big.updateScript))} ms`,
    );
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
