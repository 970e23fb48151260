#!/usr/bin/env node
// Stands in for a VS Code executable so that @vscode/test-electron's
// `runTests({ vscodeExecutablePath })` runs extension tests in code-server:
// runTests only spawns that path with `--extensionDevelopmentPath=` and
// `--extensionTestsPath=` (plus Electron flags, ignored here). The first
// positional argument (from `launchArgs`) is the workspace folder.
//
//   await runTests({
//     vscodeExecutablePath: path.resolve('test/e2e/harness/vscodeShim.mjs'),
//     extensionDevelopmentPath, extensionTestsPath, launchArgs: [workspace],
//   });
//
// Exits with the extension host's exit code (1 on timeout or no result).
import { tsImport } from 'tsx/esm/api';

const args = process.argv.slice(2);
const option = (name) => args.filter((a) => a.startsWith(`--${name}=`)).map((a) => a.slice(name.length + 3));
const [extensionDevelopmentPath] = option('extensionDevelopmentPath');
const [extensionTestsPath] = option('extensionTestsPath');
const workspace = args.find((a) => !a.startsWith('-')) ?? process.cwd();
if (!extensionDevelopmentPath || !extensionTestsPath) {
  console.error('vscodeShim: --extensionDevelopmentPath= and --extensionTestsPath= are required');
  process.exit(2);
}

const { runExtensionTests, formatReport } = await tsImport('./extensionTests.ts', import.meta.url);
const result = await runExtensionTests({
  name: process.env.E2E_RUN_NAME ?? 'test-electron',
  extensionDevelopmentPath,
  extensionTestsPath,
  workspace,
  timeoutMs: Number(process.env.E2E_TIMEOUT_MS ?? 180_000),
});
console.log(formatReport(result.report));
console.log(`extension host exit code: ${result.exitCode ?? 'none (timed out)'}; logs in ${result.runDir}`);
process.exit(result.exitCode ?? 1);
