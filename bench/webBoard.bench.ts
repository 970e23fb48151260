// The web board (`agent-ledger ui`, run as a person runs it) in headless Chromium: page load to
// the Board's first paint with all its cards' model in the page, and a write in another process →
// the card in the page (no reload). Baseline in the same run: the same page on a ledger of 6 tasks.
// Targets: first paint ≤ 1 s at 5,000 tasks; write → update p50 ≤ 300 ms.
// Usage: node --import tsx bench/webBoard.bench.ts [--tasks 5000] [--loads 5] [--writes 20]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { createServices } from '../src/app/services';
import { addManyTasks, seedBoard } from '../test/e2e/agentLedger/boardSeed';
import { ms, percentile, printTable, verdict } from './lib/report';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const tasks = Number(arg('--tasks', '5000'));
const loads = Number(arg('--loads', '5'));
const writes = Number(arg('--writes', '20'));
const cli = path.resolve(__dirname, '../dist/cli.js');

async function startUi(workspace: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [cli, 'ui', '--json', '--workspace', workspace], {
    env: { ...process.env, NO_COLOR: '1' },
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.on('close', (code) => reject(new Error(`ui exited ${code}`)));
  });
  return { url: (JSON.parse(line) as { url: string }).url, stop: () => child.kill('SIGTERM') };
}

async function side(size: number, browser: Browser) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-ledger-web-bench-'));
  const services = await createServices({ workspace: dir });
  try {
    await seedBoard(services.engine);
    if (size > 6) await addManyTasks(services.engine, size - 6);
    const ui = await startUi(dir);
    try {
      const paints: number[] = [];
      for (let i = 0; i < loads + 1; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        await page.goto(ui.url);
        await page.waitForSelector('#app[data-paint-ms]', { timeout: 60_000 });
        // The Board's own figure: performance.now() after the first model's layout and paint.
        const paint = Number(await page.getAttribute('#app', 'data-paint-ms'));
        if (i > 0) paints.push(paint); // the first load warms the server's board read
        await context.close();
      }
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(ui.url);
      await page.waitForSelector('#app[data-paint-ms]', { timeout: 60_000 });
      const updates: number[] = [];
      for (let i = 0; i < writes; i++) {
        const t0 = performance.now();
        const task = await services.tasks.create({ title: `bench ${i}`, priority: 'high', type: 'task' });
        await page.waitForSelector(`[data-card="task-${task.id}"]`, { timeout: 30_000 });
        updates.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 100));
      }
      await context.close();
      return { paints, updates };
    } finally {
      ui.stop();
    }
  } finally {
    await services.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const browser = await chromium.launch({
    executablePath: process.env.E2E_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const base = await side(6, browser);
    const big = await side(tasks, browser);
    const p = (s: number[], q: number) => percentile(s, q);
    printTable(
      `web board in headless Chromium, ${loads} loads and ${writes} writes each (ms; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`,
      [
        'tasks',
        'first paint p50',
        'first paint max',
        'write → card p50',
        'write → card p95',
        'paint ≤ 1 s',
        'update ≤ 300 ms',
      ],
      [
        [
          6,
          ms(p(base.paints, 50)),
          ms(Math.max(...base.paints)),
          ms(p(base.updates, 50)),
          ms(p(base.updates, 95)),
          '',
          '',
        ],
        [
          tasks,
          `${ms(p(big.paints, 50))} (${(p(big.paints, 50) / p(base.paints, 50)).toFixed(2)}×)`,
          ms(Math.max(...big.paints)),
          `${ms(p(big.updates, 50))} (${(p(big.updates, 50) / p(base.updates, 50)).toFixed(2)}×)`,
          ms(p(big.updates, 95)),
          verdict(p(big.paints, 50) <= 1000),
          verdict(p(big.updates, 50) <= 300),
        ],
      ],
    );
  } finally {
    await browser.close();
  }
}

void main();
