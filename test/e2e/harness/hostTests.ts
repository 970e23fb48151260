// Bundles in-host tests for the extension host: the runner (hostRunner.ts)
// plus each test file, as CommonJS with `vscode` and mocha left external.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

export interface HostTestsBuild {
  /**
   * Test sources, named `*.host.ts` (not `*.test.ts`: they import `vscode`,
   * so a unit-test glob must never pick them up); each becomes
   * `<outDir>/<name>.host.js`.
   */
  readonly testFiles: readonly string[];
  /**
   * Output folder. It must sit inside the clone (e.g. under `out/`) so that
   * `require('mocha')` from the bundled runner finds the clone's node_modules.
   */
  readonly outDir: string;
}

/** Returns the runner's path: pass it as `extensionTestsPath`. */
export async function buildHostTests({ testFiles, outDir }: HostTestsBuild): Promise<string> {
  rmSync(outDir, { recursive: true, force: true });
  const entryPoints: Record<string, string> = { hostRunner: path.join(__dirname, 'hostRunner.ts') };
  for (const file of testFiles) {
    const name = path.basename(file).replace(/\.ts$/, '');
    if (!name.endsWith('.host')) throw new Error(`${file}: in-host test files must be named *.host.ts`);
    entryPoints[name] = file;
  }
  await build({
    entryPoints,
    outdir: outDir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return path.join(outDir, 'hostRunner.js');
}
