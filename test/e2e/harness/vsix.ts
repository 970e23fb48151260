// Packages an extension folder into a VSIX with @vscode/vsce, the way the
// Marketplace build would, so the e2e run installs what users would install.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths';

export interface PackageResult {
  readonly vsixPath: string;
  readonly bytes: number;
  /** vsce's output (its file listing and warnings). */
  readonly output: string;
}

/**
 * `vsce package --no-dependencies` in `extensionDir`: the folder must already
 * hold its built bundle (vsce runs `vscode:prepublish` if the manifest has one). `extraArgs`
 * go to vsce as they are (e.g. `--no-rewrite-relative-links` for a README with relative links
 * and no repository URL).
 */
export async function packageExtension(
  extensionDir: string,
  vsixPath: string,
  extraArgs: readonly string[] = [],
): Promise<PackageResult> {
  const vsce = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  if (!existsSync(vsce)) throw new Error(`@vscode/vsce is not installed (${vsce})`);
  mkdirSync(path.dirname(path.resolve(vsixPath)), { recursive: true });
  const args = [
    vsce,
    'package',
    '--no-dependencies',
    '--allow-missing-repository',
    '--skip-license',
    '--out',
    path.resolve(vsixPath),
    ...extraArgs,
  ];
  const output = await new Promise<string>((resolve, reject) => {
    // vsce needs Node >= 20; this process's Node is the project's.
    const child = spawn(process.execPath, args, {
      cwd: extensionDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CI: 'true' },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`vsce package exited with ${code}:\n${out}`)),
    );
  });
  return { vsixPath: path.resolve(vsixPath), bytes: statSync(vsixPath).size, output };
}
