// Agent Ledger end to end, in a real VS Code (code-server) shown by headless Chromium:
//   1. the packaged VSIX (vsce) is built once;
//   2. the in-host tests (agentLedger/host/*.host.ts, mocha) run inside the extension host on
//      the unpacked VSIX: activation, MCP through vscode.lm.invokeTool, live refresh, commands;
//   3. a person's session drives the installed VSIX through the workbench (agentLedger/uiJourney.ts);
//   4. a multi-root workspace: a ledger and an MCP server per folder (agentLedger/multiRoot.ts);
//   5. the Memory Bank and Agents & Sessions views, task forms and worktrees (agentLedger/memoryAgentsJourney.ts);
//   6. a pipeline's checkpoint A approved with the webview's button (agentLedger/pipelineJourney.ts).
// Run: npm run test:e2e   (installs the host once: node scripts/e2e/setup.mjs)
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { formatReport, runExtensionTests } from './harness/extensionTests';
import { buildHostTests } from './harness/hostTests';
import { assertHostInstalled } from './harness/paths';
import { outRoot, packageAgentLedger } from './agentLedger/extensionPackage';
import type { PackagedExtension } from './agentLedger/extensionPackage';
import { describeMultiRoot } from './agentLedger/multiRoot';
import { describePipelineJourney } from './agentLedger/pipelineJourney';
import { describeUiJourney, liveTimings } from './agentLedger/uiJourney';
import { describeMemoryAgentsJourney } from './agentLedger/memoryAgentsJourney';
import { createWorkspace } from './agentLedger/workspace';

let pkg: PackagedExtension | undefined;
const hostTestsDir = path.join(__dirname, 'agentLedger', 'host');

before(async () => {
  assertHostInstalled();
  pkg = await packageAgentLedger();
  console.log(
    `packaged ${path.relative(process.cwd(), pkg.vsixPath)} (${(pkg.bytes / 1024).toFixed(0)} KiB, ${pkg.files.length} files)`,
  );
});

after(() => {
  if (liveTimings.length)
    console.log(`live refresh in the workbench:\n${liveTimings.map((t) => `  ${t.step}: ${t.ms} ms`).join('\n')}`);
});

describe('the packaged VSIX', () => {
  it('holds the bundles and assets, and no sources', () => {
    const files = pkg!.files.filter((f) => f.startsWith('extension/')).map((f) => f.slice('extension/'.length));
    for (const f of [
      'package.json',
      'readme.md',
      'changelog.md',
      'dist/extension.js',
      'dist/ledger.js',
      'dist/cli.js',
      'dist/cliMain.js',
      'dist/toolsListing.json',
      'dist/webview.js',
      'dist/sql-wasm.wasm',
      'dist/sql-wasm.js',
      'dist/resources/pipeline/flow.yaml',
      'media/webview.css',
      'media/agent-ledger.svg',
    ]) {
      assert.ok(files.includes(f), `${f} is missing from the VSIX`);
    }
    assert.deepEqual(
      files.filter((f) => /^(src|test|node_modules|webview-ui)\/|\.map$|\.ts$/.test(f)),
      [],
    );
  });
});

describe('in-host tests (mocha inside the extension host)', { timeout: 300_000 }, () => {
  it('pass', async () => {
    const testFiles = readdirSync(hostTestsDir)
      .filter((f) => f.endsWith('.host.ts'))
      .sort()
      .map((f) => path.join(hostTestsDir, f));
    const extensionTestsPath = await buildHostTests({
      testFiles,
      outDir: path.join(outRoot, 'agent-ledger-host-tests'),
    });
    // No `.mcp.json` here: `workbench.mcp.startServer '*'` would wait on the server it names.
    const workspace = createWorkspace('al-e2e-host-', false);
    try {
      const result = await runExtensionTests({
        name: 'agent-ledger-host-tests',
        extensionDevelopmentPath: pkg!.unpackedDir,
        extensionTestsPath,
        workspace,
        timeoutMs: 240_000,
      });
      const summary = `${formatReport(result.report)}\n(run folder: ${result.runDir}, ${(result.durationMs / 1000).toFixed(1)} s)`;
      console.log(summary);
      assert.equal(result.timedOut, false, `timed out\n${summary}`);
      assert.equal(result.exitCode, 0, summary);
      const declared = testFiles.reduce((n, f) => n + (readFileSync(f, 'utf8').match(/^\s*it\(/gm)?.length ?? 0), 0);
      assert.equal(result.report?.stats.passes, declared, `every declared in-host test must run and pass\n${summary}`);
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});

describeUiJourney(() => pkg!);
describeMemoryAgentsJourney(() => pkg!);
describePipelineJourney(() => pkg!);
describeMultiRoot(() => pkg!);
