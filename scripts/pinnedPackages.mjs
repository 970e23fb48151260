// One npm package at a pinned version in a prefix of its own, for the programs the tests drive
// (scripts/agentClis.mjs, scripts/mcpTools.mjs). Only the npm registry is used, and nothing a
// package's install scripts would run: every install is --ignore-scripts.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The version of `pkg` installed under `prefix`, or null. */
export function installedVersion(prefix, pkg) {
  try {
    return JSON.parse(fs.readFileSync(path.join(prefix, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

/** Installs `pkg@version` alone into a fresh `prefix` (what was there goes); throws with npm's output on failure. */
export function installPinned(prefix, pkg, version, log = () => {}) {
  fs.rmSync(prefix, { recursive: true, force: true });
  fs.mkdirSync(prefix, { recursive: true });
  fs.writeFileSync(
    path.join(prefix, 'package.json'),
    `${JSON.stringify({ private: true, description: `${pkg} for the tests`, dependencies: { [pkg]: version } }, null, 2)}\n`,
  );
  log(`installing ${pkg}@${version} into ${path.relative(process.cwd(), prefix) || prefix}`);
  const started = Date.now();
  const result = spawnSync(
    'npm',
    [
      'install',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--no-update-notifier',
      '--loglevel=error',
      '--package-lock=false',
    ],
    { cwd: prefix, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 10 * 60 * 1000 },
  );
  if (result.status !== 0)
    throw new Error(
      `npm install ${pkg}@${version} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stderr || result.stdout}`,
    );
  log(`installed ${pkg}@${version} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * The command line both scripts share: `[install|where] [--only a,b] [--json]`. `install` installs
 * what is missing, `where` only looks; the exit code is 1 when one is still missing.
 */
export function pinnedMain(names, { status, install, describe }) {
  const args = process.argv.slice(2);
  const onlyIdx = args.indexOf('--only');
  // The word after --only is its list, not the command (without --only, onlyIdx + 1 is 0: no exception).
  const command = args.find((a, i) => !a.startsWith('--') && (onlyIdx < 0 || i !== onlyIdx + 1)) ?? 'install';
  const chosen = onlyIdx >= 0 ? args[onlyIdx + 1].split(',') : names;
  if (command !== 'install' && command !== 'where') {
    console.error(`unknown command "${command}": install or where`);
    process.exit(2);
  }
  const statuses = chosen.map((name) =>
    command === 'install' ? install(name, { log: (m) => console.error(m) }) : status(name),
  );
  if (args.includes('--json')) console.log(JSON.stringify(statuses, null, 2));
  else
    for (const s of statuses)
      console.log(`${s.name} ${s.ok ? s.version : `missing (pinned ${s.version})`} ${describe(s)}`);
  if (statuses.some((s) => !s.ok)) process.exit(1);
}
