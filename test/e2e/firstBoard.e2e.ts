// A new user's first Board, in headless Debian Chromium: a fresh repository, one task created from
// a terminal, then `agent-ledger ui`. The built-in coder and reviewer are drag targets on the first
// page (nothing had listed the agents before), and dropping the card on the coder assigns it.
// Needs only Chromium (scripts/e2e/setup.mjs installs it); no code-server.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BrowserSession, screenshotsDir } from './harness/browser';
import { startUi } from './harness/uiProcess';
import { chromiumPath } from './harness/paths';
import { cliPath } from '../helpers/mcpClient';
import { ledgerEnv } from '../helpers/testLedger';
import { tempRepo } from '../helpers/tmp';
import { until } from '../helpers/processes';

const cli = (repo: string, ...args: string[]): string =>
  execFileSync(process.execPath, [cliPath, ...args, '--workspace', repo, '--json'], {
    env: { ...ledgerEnv(repo), NO_COLOR: '1' },
    encoding: 'utf8',
  });

describe(
  "a fresh workspace's first Board",
  { skip: fs.existsSync(chromiumPath) ? false : `no ${chromiumPath}` },
  () => {
    it('offers the built-in agents as drag targets, and a drop on one assigns the task', async () => {
      const repo = tempRepo({ 'README.md': '# demo\n' });
      const { id } = JSON.parse(cli(repo, 'task', 'create', 'Write the changelog')) as { id: number };
      assert.equal(fs.existsSync(path.join(repo, '.agent-ledger', 'agents')), false, 'no agent written or listed yet');
      const ui = await startUi(repo);
      const browser = await BrowserSession.launch({ viewport: { width: 1280, height: 800 } });
      try {
        const page = await browser.page();
        await page.goto(ui.url);
        await page.locator(`[data-card="task-${id}"]`).waitFor({ state: 'visible', timeout: 15_000 });
        const targets = await page
          .locator('[data-agent]')
          .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-agent')}: ${e.textContent}`));
        assert.deepEqual(targets, ['coder: coder (claude-code)', 'reviewer: reviewer (claude-code)']);
        fs.mkdirSync(path.join(screenshotsDir, 'web-board'), { recursive: true });
        await page.screenshot({ path: path.join(screenshotsDir, 'web-board', 'first-board.png') });
        await page.dragAndDrop(`[data-card="task-${id}"]`, '[data-agent="coder"]');
        const assignee = () =>
          (JSON.parse(cli(repo, 'task', 'get', String(id))) as { assigneeName: string | null }).assigneeName;
        // A CLI process per poll: bounded, and each sees the ledger as another process wrote it.
        assert.equal(await until('the task assigned', () => assignee(), 15_000), 'coder');
      } finally {
        await browser.close();
        ui.child.kill('SIGTERM');
      }
    });
  },
);
