// A multi-root workspace: one ledger per folder, each under its own node in the Tasks view, and
// one MCP server definition per folder.
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createServices } from '../../../src/app/services';
import { BrowserSession, Workbench } from '../harness/browser';
import { CodeServer } from '../harness/codeServer';
import type { PackagedExtension } from './extensionPackage';
import { createWorkspace } from './workspace';
import { treeRow } from './workbenchLedger';

export function describeMultiRoot(pkg: () => PackagedExtension): void {
  describe('a multi-root workspace (one ledger per folder)', { timeout: 180_000 }, () => {
    let server: CodeServer;
    let browser: BrowserSession;
    let wb: Workbench;
    const folders: string[] = [];
    let dir = '';

    before(async () => {
      for (const [i, title] of ['Alpha work', 'Beta work'].entries()) {
        const ws = createWorkspace(`al-e2e-root${i}-`, false);
        folders.push(ws);
        // Another process (this one) records work in each folder before the window opens.
        const services = await createServices({ workspace: ws });
        const { workflow_id } = await services.workflows.start({ name: `${title} flow` });
        await services.tracking.startTask({ workflow_id, name: title, goal: 'Show up under the right folder' });
        services.dispose();
      }
      dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'al-e2e-multi-')));
      const file = path.join(dir, 'shop.code-workspace');
      writeFileSync(file, JSON.stringify({ folders: folders.map((p) => ({ path: p })) }, null, 2));
      server = CodeServer.create({ name: 'agent-ledger-multi-root' });
      await server.installExtension(pkg().vsixPath);
      await server.start();
      browser = await BrowserSession.launch({ consoleLogFile: path.join(server.runDir, 'browser-console.log') });
      wb = await Workbench.open(await browser.page(), `${server.origin}/?workspace=${encodeURIComponent(file)}`);
    });

    after(async () => {
      await browser?.close();
      await server?.stop();
      for (const d of [...folders, dir]) if (d) rmSync(d, { recursive: true, force: true });
    });

    it('shows each folder’s ledger under its own node', async () => {
      await wb.openViewContainer('Agent Ledger');
      for (const [i, title] of ['Alpha work', 'Beta work'].entries()) {
        await treeRow(wb.page, path.basename(folders[i])).waitFor({ state: 'visible', timeout: 30_000 });
        await treeRow(wb.page, title).waitFor({ state: 'visible', timeout: 30_000 });
      }
      // The folder rows come first, each followed by its own work.
      const rows = await wb.page.locator('.part.sidebar .monaco-list-row').allInnerTexts();
      const at = (text: string): number => rows.findIndex((r) => r.includes(text));
      assert.ok(
        at(path.basename(folders[0])) < at('Alpha work') &&
          at('Alpha work') < at(path.basename(folders[1])) &&
          at(path.basename(folders[1])) < at('Beta work'),
        rows.join(' | '),
      );
      await wb.waitForStatusBarText('2 tasks in progress');
      await wb.screenshot('agent-ledger-multi-root');
    });

    it('offers one MCP server per folder', async () => {
      await wb.runCommand('MCP: List Servers');
      for (const f of folders)
        await wb.quickPickItem(`Agent Ledger (${path.basename(f)})`).waitFor({ state: 'visible', timeout: 30_000 });
      await wb.closeQuickInput();
    });
  });
}
