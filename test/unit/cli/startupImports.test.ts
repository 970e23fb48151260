import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.resolve(__dirname, '..', '..', '..');

/** The modules `dist/cliMain.js` evaluates before any command runs: static imports from src/cli/main.ts. */
async function staticallyLoaded(): Promise<Set<string>> {
  const built = await esbuild.build({
    entryPoints: [path.join(root, 'src/cli/main.ts')],
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    write: false,
    metafile: true,
    outfile: path.join(root, 'dist', 'startupImports.js'),
    logLevel: 'silent',
  });
  const inputs = built.metafile.inputs;
  const seen = new Set(['src/cli/main.ts']);
  const queue = ['src/cli/main.ts'];
  while (queue.length > 0) {
    for (const imported of inputs[queue.shift()!]?.imports ?? []) {
      if (imported.kind === 'dynamic-import' || imported.external || seen.has(imported.path)) continue;
      seen.add(imported.path);
      queue.push(imported.path);
    }
  }
  return seen;
}

// Every module a started `mcp serve` evaluates stays in its heap for the process's life: the tool
// catalog would build every family's contracts (~5,000 zod schemas, ~5 MiB of an idle server).
test('the CLI (and mcp serve) starts without the tool catalog or any tool contract', async () => {
  const loaded = await staticallyLoaded();
  assert.ok(loaded.has('src/cli/program.ts') && loaded.size > 100, `the import graph was walked (${loaded.size} modules)`);
  // A family's description (tools/<family>/family.ts) is plain data; its tools load with its first call.
  const offenders = [...loaded].filter((f) => f === 'src/mcp/catalog.ts' || (/^src\/mcp\/tools\//.test(f) && !f.endsWith('/family.ts')) || /Contracts\.ts$/.test(f));
  assert.deepEqual(offenders, []);
});
