// Proves the end-to-end harness on the hello-ext fixture, in a real VS Code
// (code-server) shown by headless Chromium. Needs `node scripts/e2e/setup.mjs` first.
// Run: node --import tsx --test test/e2e/smoke.e2e.ts
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runTests } from '@vscode/test-electron';
import { BrowserSession, Workbench } from './harness/browser';
import { CodeServer } from './harness/codeServer';
import { formatReport, runExtensionTests } from './harness/extensionTests';
import { buildHostTests } from './harness/hostTests';
import { assertHostInstalled, repoRoot } from './harness/paths';
import { packageExtension } from './harness/vsix';
import { buildHelloExt, helloExtHostTests } from './fixtures/hello-ext/build';
import { fixtureExtensionId, fixtureIds, greeting, statusBarText, treeLabels } from './fixtures/hello-ext/src/ids';

const outRoot = path.join(repoRoot, 'out', 'e2e');
let extensionDir = '';
let vsixPath = '';
let workspace = '';

before(async () => {
  assertHostInstalled();
  extensionDir = await buildHelloExt(path.join(outRoot, 'hello-ext'));
  ({ vsixPath } = await packageExtension(extensionDir, path.join(outRoot, 'hello-ext.vsix')));
  workspace = mkdtempSync(path.join(os.tmpdir(), 'agent-ledger-e2e-ws-'));
  writeFileSync(path.join(workspace, 'README.md'), '# e2e workspace\n');
});

after(() => {
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

describe('hello-ext installed from its VSIX, driven through the workbench', { timeout: 180_000 }, () => {
  let server: CodeServer;
  let browser: BrowserSession;
  let workbench: Workbench;

  before(async () => {
    server = CodeServer.create({ name: 'smoke-ui' });
    await server.installExtension(vsixPath);
    assert.ok((await server.listExtensions()).includes(`${fixtureExtensionId}@0.0.1`), 'VSIX not listed as installed');
    await server.start();
    browser = await BrowserSession.launch({ consoleLogFile: path.join(server.runDir, 'browser-console.log') });
    workbench = await Workbench.open(await browser.page(), server.workbenchUrl(workspace));
  });

  after(async () => {
    // The state the last test left, for when one failed.
    await workbench?.screenshot('smoke-ui-final').catch(() => undefined);
    await browser?.close();
    await server?.stop();
  });

  it('activates and shows its status-bar entry', async () => {
    const entry = await workbench.waitForStatusBarText(statusBarText, 30_000);
    assert.match(await entry.innerText(), new RegExp(statusBarText));
  });

  it('renders its activity-bar tree view', async () => {
    await workbench.openViewContainer(fixtureIds.viewContainerTitle);
    for (const label of treeLabels) await workbench.waitForTreeItem(label);
    const shot = await workbench.screenshot('hello-ext-tree-view');
    assert.ok(statSync(shot).size > 10_000, `screenshot ${shot} is suspiciously small`);
  });

  it('runs its palette command, which shows a notification', async () => {
    await workbench.runCommand(fixtureIds.commandTitle);
    const toast = await workbench.waitForNotification(greeting);
    assert.match(await toast.innerText(), new RegExp(greeting));
    await workbench.screenshot('hello-ext-notification');
  });

  it('lists its MCP server under MCP: List Servers', async () => {
    await workbench.runCommand('MCP: List Servers');
    const item = workbench.quickPickItem(fixtureIds.mcpServerLabel);
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    await workbench.screenshot('hello-ext-mcp-list-servers');
    await workbench.closeQuickInput();
  });
});

describe('hello-ext extension tests inside the real extension host', { timeout: 240_000 }, () => {
  it('pass: exit code 0 and a mocha report with every test passed', async () => {
    const extensionTestsPath = await buildHostTests({
      testFiles: helloExtHostTests,
      outDir: path.join(outRoot, 'hello-ext-host-tests'),
    });
    const result = await runExtensionTests({
      name: 'smoke-host-tests',
      extensionDevelopmentPath: extensionDir,
      extensionTestsPath,
      workspace,
      timeoutMs: 180_000,
    });
    const summary = `${formatReport(result.report)}\n(run folder: ${result.runDir})`;
    assert.equal(result.timedOut, false, `timed out\n${summary}`);
    assert.equal(result.exitCode, 0, summary);
    assert.ok(result.report, summary);
    assert.equal(result.report.stats.failures, 0, summary);
    assert.equal(result.report.stats.passes, countTests(helloExtHostTests), summary);
    assert.ok(existsSync(path.join(result.runDir, 'code-server.log')));
  });
});

describe('@vscode/test-electron pointed at code-server', { timeout: 240_000 }, () => {
  it('runTests({ vscodeExecutablePath: vscodeShim.mjs }) resolves 0', async () => {
    const extensionTestsPath = await buildHostTests({
      testFiles: helloExtHostTests,
      outDir: path.join(outRoot, 'hello-ext-host-tests-te'),
    });
    const code = await runTests({
      vscodeExecutablePath: path.join(__dirname, 'harness', 'vscodeShim.mjs'),
      extensionDevelopmentPath: extensionDir,
      extensionTestsPath,
      launchArgs: [workspace],
      extensionTestsEnv: { E2E_RUN_NAME: 'smoke-test-electron' },
    });
    assert.equal(code, 0);
  });
});

/** The `it(` calls in the sources, so that a test that silently did not run fails here. */
function countTests(files: readonly string[]): number {
  return files.reduce((n, f) => n + (readFileSync(f, 'utf8').match(/^\s*it\(/gm)?.length ?? 0), 0);
}
