import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.resolve(__dirname, '../../..');

/** What VS Code loads to activate the extension: src/extension.ts bundled as `node esbuild.mjs --production` bundles it. */
async function activationBundle(): Promise<{ bytes: number; inputs: string[] }> {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { extension: 'src/extension.ts' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    minify: true,
    legalComments: 'none',
    outdir: path.join(root, 'dist'),
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const [output] = Object.values(result.metafile.outputs).filter((o) => o.entryPoint === 'src/extension.ts');
  return { bytes: output.bytes, inputs: Object.keys(output.inputs) };
}

/**
 * Activation compiles what the bundle holds: the MCP server's tools, zod and the SDK are the
 * server's business (it runs as its own process), so the extension knows the tool families as
 * data only (each family's family.ts). The lint rule on imports checks sources; this checks what
 * the bundle closes over, from esbuild's metafile.
 */
test('the activation bundle holds no tool module, no zod and no MCP SDK, and stays under 250 KB', async () => {
  const { bytes, inputs } = await activationBundle();
  const unwanted = inputs.filter(
    (f) =>
      (f.startsWith('src/mcp/tools/') && !f.endsWith('/family.ts')) ||
      f === 'src/mcp/catalog.ts' ||
      f.includes('node_modules/zod/') ||
      f.includes('node_modules/@modelcontextprotocol/sdk/'),
  );
  assert.deepEqual(unwanted, []);
  assert.ok(
    inputs.some((f) => f.startsWith('src/vscode/')),
    'the bundle was walked',
  );
  assert.ok(bytes <= 250 * 1024, `dist/extension.js would be ${bytes} bytes minified`);
});
