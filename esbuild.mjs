// Bundles the three entry points the product ships and copies the runtime assets they load.
//   dist/extension.js  the VS Code extension (vscode stays external)
//   dist/ledger.js     the domain the extension loads when it opens a ledger (createServices)
//   dist/cli.js        the agent-ledger command: turns on the compile cache, then loads dist/cliMain.js
//   dist/cliMain.js    the CLI, including `mcp serve` (+ dist/toolsListing.json, its tools list)
//   dist/checkpointWorker.js  the worker thread of a large store's background checkpoint
//   dist/webview.js    the webview front end (browser code)
//   dist/web/          the web board's page (`agent-ledger ui`): web.js and its styles; app.js, the
//                      MCP Apps' page script (inlined into the ui:// resources)
// Usage: node esbuild.mjs [--watch] [--production]
import * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/**
 * Keeps a Node bundle pure ASCII. esbuild escapes strings but copies comments and regular
 * expression literals as they are, and one "—" among 3 MB makes V8 hold the whole source as a
 * two-byte string: 6.7 MB instead of 3.3 MB of heap for dist/cli.js, kept for the life of every
 * server process (docs/performance.md, "Memory"). A \uXXXX escape means the same character in a
 * comment, a string, a regular expression and an identifier; only String.raw would see the
 * difference, so a bundle where one would is refused.
 */
const asciiOutput = {
  name: 'ascii-output',
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length > 0) return;
      for (const out of Object.keys(result.metafile?.outputs ?? {}).filter((f) => f.endsWith('.js'))) {
        const text = readFileSync(out, 'utf8');
        if (!/[^\x00-\x7f]/.test(text)) continue;
        for (const line of text.split('\n')) {
          if (/[^\x00-\x7f]/.test(line) && line.includes('String.raw'))
            throw new Error(
              `${out}: a non-ASCII character beside String.raw cannot be escaped safely: ${line.slice(0, 200)}`,
            );
        }
        writeFileSync(
          out,
          text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
        );
      }
    });
  },
};

/**
 * Writes dist/toolsListing.json beside dist/cli.js after each build of it: every tool as
 * tools/list gives it, computed from the zod contracts by src/mcp/listing/writeListing.ts (bundled
 * to a temporary folder and run). `mcp serve` lists its tools from it without building a schema;
 * test/mcp/toolsListing.test.ts holds it equal to the live listing.
 */
const toolsListing = {
  name: 'tools-listing',
  setup(build) {
    build.onEnd(async (result) => {
      if (result.errors.length > 0) return;
      const tmp = mkdtempSync(path.join(os.tmpdir(), 'agent-ledger-listing-'));
      try {
        const script = path.join(tmp, 'writeListing.js');
        await esbuild.build({
          entryPoints: ['src/mcp/listing/writeListing.ts'],
          bundle: true,
          platform: 'node',
          target: 'node20',
          format: 'cjs',
          outfile: script,
          logLevel: 'warning',
        });
        writeFileSync(
          'dist/toolsListing.json',
          execFileSync(process.execPath, [script], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }),
        );
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    });
  },
};

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
  metafile: true,
};
// jsonc-parser's `main` is a UMD build that loads its parts with a require() esbuild cannot
// follow ("Cannot find module './impl/format'" at run time); its ES module build bundles.
const node = { ...common, plugins: [asciiOutput], alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' } };

const builds = [
  {
    ...node,
    entryPoints: { extension: 'src/extension.ts' },
    outdir: 'dist',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    // The first statement of the bundle: src/extension.ts measures its own load time from it.
    banner: { js: '"use strict";var __agentLedgerLoadStart = performance.now();' },
  },
  {
    // The domain the extension opens a folder's ledger with (createServices: store, sql.js, Git),
    // a bundle of its own so that VS Code compiles it only when a ledger opens, not at activation.
    ...node,
    entryPoints: { ledger: 'src/vscode/ledger/domainEntry.ts' },
    outdir: 'dist',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
  },
  {
    ...node,
    // The CLI and MCP server; dist/cli.js below loads it after turning on the compile cache.
    entryPoints: { cliMain: 'src/cli/main.ts' },
    plugins: [asciiOutput, toolsListing],
    outdir: 'dist',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    // Every MCP server process holds its bundle's source as a string: without whitespace and
    // comments it is 2.9 MB instead of 4.0 (names kept, so stack traces still read;
    // docs/performance.md, "SDK v2").
    minifyWhitespace: true,
  },
  {
    // The `agent-ledger` command (package.json bin): a few lines, so nothing big is compiled before the cache is on.
    ...node,
    entryPoints: { cli: 'src/cli/launcher.ts' },
    outdir: 'dist',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    // The worker thread that prepares a large store's checkpoint image off the write path
    // (src/store/embedded/backgroundCheckpoint.ts finds it beside the bundle that started it).
    ...node,
    entryPoints: { checkpointWorker: 'src/store/embedded/checkpointWorker.ts' },
    outdir: 'dist',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
  },
  {
    // The web board's page (`agent-ledger ui`): the same views on the browser host, beside its styles.
    ...common,
    entryPoints: { web: 'webview-ui/browser/main.ts' },
    outdir: 'dist/web',
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
  },
  {
    // The MCP Apps' page script, inlined into every ui:// page a client reads: always minified.
    ...common,
    entryPoints: { app: 'webview-ui/app/main.mts' },
    outdir: 'dist/web',
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    minify: true,
    sourcemap: false,
  },
  {
    ...common,
    entryPoints: { webview: 'webview-ui/main.ts' },
    outdir: 'dist',
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
  },
].filter((b) => Object.values(b.entryPoints).every((e) => existsSync(e)));

function copyAssets() {
  mkdirSync('dist', { recursive: true });
  // sql.js: the wasm, and the glue the store reads and runs itself (src/store/embedded/sqlJs.ts).
  const sqlJs = path.dirname(require.resolve('sql.js'));
  cpSync(path.join(sqlJs, 'sql-wasm.wasm'), 'dist/sql-wasm.wasm');
  cpSync(path.join(sqlJs, 'sql-wasm.js'), 'dist/sql-wasm.js');
  // The web board's styles: the webviews' own, and the theme variables VS Code gives webviews.
  mkdirSync('dist/web', { recursive: true });
  for (const f of ['webview.css', 'web.css', 'agent-ledger.svg'])
    cpSync(path.join('media', f), path.join('dist/web', f));
  // Default pipeline flows and agent instructions ship beside the bundle.
  if (existsSync('resources')) {
    cpSync('resources', 'dist/resources', { recursive: true });
  }
}

copyAssets();
if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log(`watching ${builds.length} bundles…`);
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  const files = readdirSync('dist').filter((f) => f.endsWith('.js'));
  console.log(`built dist/: ${files.join(', ')}`);
}
