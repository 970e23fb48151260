import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { tempDir, tempRepo } from '../helpers/tmp';

const root = path.resolve(__dirname, '../..');

/**
 * README "Install the command": `npm install -g "$(npm pack | tail -1)"` installs a package that
 * works wherever it lands. Its files are the bundled CLI and the assets it loads; it runs with no
 * node_modules next to it (an installed copy never needs the clone).
 */
test('npm pack makes a self-contained agent-ledger package: dist/cli.js and its assets, nothing else', () => {
  const out = tempDir('agent-ledger-pack-');
  const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', out], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(pack.status, 0, pack.stderr);
  const [{ filename, files }] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  const paths = files.map((f) => f.path);
  // Every script the bundle starts beside itself (the launcher's bundle, the checkpoint's worker) travels with it.
  for (const needed of [
    'package.json',
    'README.md',
    'dist/cli.js',
    'dist/cliMain.js',
    'dist/toolsListing.json',
    'dist/checkpointWorker.js',
    'dist/sql-wasm.wasm',
    'dist/sql-wasm.js',
    'dist/resources/pipeline/flow.yaml',
    // `agent-ledger ui` serves its page from beside the bundle.
    'dist/web/web.js',
    'dist/web/webview.css',
    'dist/web/web.css',
  ])
    assert.ok(paths.includes(needed), `${needed} is missing from the package`);
  assert.deepEqual(
    paths.filter((p) => /^(src|test|bench|scripts|webview-ui|node_modules)\//.test(p) || p.endsWith('.map')),
    [],
    'sources, tests and source maps stay out',
  );

  const manifest = JSON.parse(
    spawnSync('tar', ['-xzOf', path.join(out, filename), 'package/package.json'], { encoding: 'utf8' }).stdout,
  ) as { dependencies?: Record<string, string> };
  assert.deepEqual(
    Object.keys(manifest.dependencies ?? {}),
    [],
    'everything is bundled: a global install downloads no dependency',
  );

  const extract = spawnSync('tar', ['-xzf', path.join(out, filename), '-C', out], { encoding: 'utf8' });
  assert.equal(extract.status, 0, extract.stderr);
  const installed = path.join(out, 'package', 'dist', 'cli.js');
  const repo = tempRepo();
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [installed, ...args, '--workspace', repo], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
  const created = run('task', 'create', 'From the packed CLI');
  assert.equal(created.status, 0, created.stderr);
  const init = run('pipeline', 'init', 'Packed pipeline');
  assert.equal(init.status, 0, `pipelines need dist/resources: ${init.stderr}`);
  assert.match(run('task', 'list').stdout, /task-1\s+open.*From the packed CLI/);
});
