import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../helpers/tmp';

/**
 * `npm start` without `code` on PATH packages the extension and installs it into code-server. In a
 * fresh clone the VSIX's folder does not exist yet: vsce does not create it, so the start failed
 * (`ENOENT …/out/agent-ledger.vsix`) — after installing code-server for minutes. The packaging
 * step creates its folder; start.mjs runs it before the install, so a failure shows at once.
 */
test('the VSIX is packaged into a folder that does not exist yet', async () => {
  const { packageVsix } = await import('../../scripts/packageVsix.mjs');
  const extension = tempDir('agent-ledger-vsix-src-');
  fs.writeFileSync(
    path.join(extension, 'package.json'),
    JSON.stringify({
      name: 'tiny',
      publisher: 'agent-ledger',
      version: '0.0.1',
      engines: { vscode: '^1.101.0' },
      main: './extension.js',
      activationEvents: ['onStartupFinished'],
      files: ['extension.js'],
    }),
  );
  fs.writeFileSync(path.join(extension, 'extension.js'), 'exports.activate = () => undefined;\n');
  fs.writeFileSync(path.join(extension, 'README.md'), '# tiny\n\nA test extension.\n');
  const out = path.join(tempDir('agent-ledger-vsix-out-'), 'out', 'tiny.vsix');
  assert.equal(packageVsix(extension, out, { stdio: 'pipe' }), out);
  assert.equal(fs.readFileSync(out).subarray(0, 2).toString(), 'PK', 'a zip file');
});

test('npm start packages the extension before it installs code-server', () => {
  const script = fs.readFileSync(path.resolve(__dirname, '../../scripts/start.mjs'), 'utf8');
  const packaging = script.indexOf('packageVsix(');
  const install = script.indexOf("'setup.mjs'");
  assert.ok(packaging > 0 && install > 0, 'start.mjs packages with packageVsix and installs with setup.mjs');
  assert.ok(packaging < install, 'the seconds-long step that can fail comes before the minutes-long install');
});
