// The test runner that VS Code's extension host loads from extensionTestsPath.
// Bundled to plain CommonJS by buildHostTests() (hostTests.ts); mocha stays
// external and resolves from the clone's node_modules.
//
// It runs every `*.host.js` beside it (recursively) with mocha's `json`
// reporter writing to E2E_MOCHA_RESULT_FILE, because nothing the extension
// host prints comes back to the harness. The returned promise rejects when a
// test fails, which makes the workbench report exit code 1.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import Mocha from 'mocha';
import { grepEnv, resultFileEnv } from './hostRunnerEnv';

export function run(): Promise<void> {
  const testsDir = __dirname;
  const output = process.env[resultFileEnv] ?? path.join(testsDir, 'mocha-results.json');
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: 60_000,
    reporter: 'json',
    reporterOptions: { output },
    ...(process.env[grepEnv] ? { grep: process.env[grepEnv] } : {}),
  });
  const files = readdirSync(testsDir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.host.js'))
    .sort();
  for (const file of files) mocha.addFile(path.join(testsDir, file));
  return new Promise((resolve, reject) => {
    if (files.length === 0) {
      reject(new Error(`no *.host.js files in ${testsDir}`));
      return;
    }
    mocha.run((failures) =>
      failures > 0 ? reject(new Error(`${failures} test(s) failed; results in ${output}`)) : resolve(),
    );
  });
}
