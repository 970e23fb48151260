// Installs a pinned peer from the npm registry into bench/.peers/ (git-ignored) the first time,
// with `npm install --prefix`: nothing global, nothing in $HOME (npm's cache and logs go to
// bench/.peers/.npm-cache), no install scripts (neither peer needs one to run its MCP server).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where peers are cached: inside the clone, ignored by Git. */
export const peersRoot = path.resolve(__dirname, '..', '.peers');

/** A pinned npm package and the file of it that starts its MCP server. */
export interface PeerPackage {
  name: string;
  version: string;
  /** Path of the server entry point inside the package. */
  entry: string;
}

/** Folder of the installed package (its own node_modules tree lives beside it). */
export function packageDir(pkg: PeerPackage): string {
  return path.join(peersRoot, `${pkg.name}@${pkg.version}`, 'node_modules', pkg.name);
}

/**
 * Makes sure `pkg` is installed at exactly its pinned version; installs it otherwise.
 * Returns the absolute path of its entry point; throws with npm's last lines when it fails.
 */
export function ensurePeer(pkg: PeerPackage, log: (line: string) => void): string {
  const prefix = path.join(peersRoot, `${pkg.name}@${pkg.version}`);
  const entry = path.join(packageDir(pkg), pkg.entry);
  if (installedVersion(pkg) === pkg.version && fs.existsSync(entry)) return entry;
  fs.mkdirSync(prefix, { recursive: true });
  log(`installing ${pkg.name}@${pkg.version} into ${path.relative(process.cwd(), prefix)} (first run only)…`);
  const started = Date.now();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(
    npm,
    [
      'install',
      '--prefix',
      prefix,
      '--cache',
      path.join(peersRoot, '.npm-cache'),
      '--prefer-offline',
      '--save-exact',
      '--ignore-scripts',
      '--omit=optional',
      '--no-audit',
      '--no-fund',
      '--no-update-notifier',
      '--loglevel=error',
      `${pkg.name}@${pkg.version}`,
    ],
    { encoding: 'utf8', timeout: 15 * 60_000 },
  );
  if (result.status !== 0 || installedVersion(pkg) !== pkg.version || !fs.existsSync(entry)) {
    const tail = `${result.stderr ?? ''}${result.stdout ?? ''}${result.error ? String(result.error) : ''}`
      .trim()
      .split('\n')
      .slice(-5)
      .join(' / ');
    throw new Error(`npm install ${pkg.name}@${pkg.version} failed (exit ${result.status}): ${tail}`);
  }
  log(`installed ${pkg.name}@${pkg.version} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return entry;
}

function installedVersion(pkg: PeerPackage): string | undefined {
  try {
    return (JSON.parse(fs.readFileSync(path.join(packageDir(pkg), 'package.json'), 'utf8')) as { version?: string })
      .version;
  } catch {
    return undefined;
  }
}
