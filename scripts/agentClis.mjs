// Installs the real agent CLIs the tests drive (Claude Code, Codex, Gemini CLI) at pinned
// versions into <clone>/.agent-clis/, one npm prefix per client, and links each program into
// .agent-clis/bin/ so a test can put that folder first on PATH, as a user's `claude` would be.
//
// Usage: node scripts/agentClis.mjs [install|where] [--json] [--only claude,codex,gemini]
//   install (default): installs what is missing or at another version, then prints where each
//     program is; a client already there at its pinned version costs one file read.
//   where: prints what is installed, installs nothing (exit 1 if one is missing).
//
// Only the npm registry is used. Every package is installed with --ignore-scripts: Claude Code's
// postinstall only copies the native binary of its platform package over a placeholder (we link
// that binary instead), Codex has no install script (its launcher finds its platform package),
// and Gemini CLI's optional native modules would compile node-pty 1.0.0 with node-gyp or copy
// keytar's prebuilds; Gemini loads @lydell/node-pty (prebuilt, from npm) first and keeps its
// credentials in a file without keytar. So nothing an install runs can reach another host.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPinned, installedVersion, pinnedMain } from './pinnedPackages.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The default install folder: inside the clone, ignored by Git. */
export const agentClisDir = path.join(repoRoot, '.agent-clis');

const platformKey = `${process.platform}-${process.arch}`;
const codexTriples = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
};

/**
 * The pinned clients. `program(prefix)` is the file to run (relative to the client's prefix) and
 * `viaNode` says whether it is a Node script.
 */
export const agentClis = {
  claude: {
    package: '@anthropic-ai/claude-code',
    // The newest 2.1.x on the registry when pinned (2.1.332); engines says Node >= 22, but the
    // package runs a native binary, so Node 20 only installs it.
    version: '2.1.332',
    program: `node_modules/@anthropic-ai/claude-code-${platformKey}/claude`,
    viaNode: false,
  },
  codex: {
    package: '@openai/codex',
    // 0.169.0 is the 0.169 line's only release (0.171.0 is `latest`).
    version: '0.169.0',
    // The launcher execve()s the native binary of @openai/codex-<platform> (no Node left behind).
    program: 'node_modules/@openai/codex/bin/codex.js',
    viaNode: true,
    check: `node_modules/@openai/codex-${platformKey}/vendor/${codexTriples[platformKey] ?? 'unknown'}/bin/codex`,
  },
  gemini: {
    package: '@google/gemini-cli',
    version: '0.61.0',
    program: 'node_modules/@google/gemini-cli/bundle/gemini.js',
    viaNode: true,
  },
};

/** Where a client is (or would be) installed, and whether its pinned version is there. */
export function agentCliStatus(name, dir = agentClisDir) {
  const cli = agentClis[name];
  if (!cli) throw new Error(`unknown agent CLI "${name}" (known: ${Object.keys(agentClis).join(', ')})`);
  const prefix = path.join(dir, name);
  const program = path.join(prefix, cli.program);
  const installed = installedVersion(prefix, cli.package);
  const present = fs.existsSync(program) && (!cli.check || fs.existsSync(path.join(prefix, cli.check)));
  return {
    name,
    package: cli.package,
    version: cli.version,
    installedVersion: installed,
    ok: installed === cli.version && present,
    /** The program to run (a Node script when viaNode). */
    program,
    viaNode: cli.viaNode,
    /** The link in `<dir>/bin/`: put that folder first on PATH to run it by its usual name. */
    bin: path.join(dir, 'bin', name),
  };
}

/** A shell script rather than a symlink for the Node scripts: the clone's node runs them, whatever PATH says. */
function linkProgram(status) {
  fs.mkdirSync(path.dirname(status.bin), { recursive: true });
  fs.rmSync(status.bin, { force: true });
  if (status.viaNode) {
    fs.writeFileSync(
      status.bin,
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(status.program)} "$@"\n`,
      { mode: 0o755 },
    );
  } else {
    fs.symlinkSync(status.program, status.bin);
  }
}

/** Installs one client at its pinned version when it is not already there; returns its status. */
export function installAgentCli(name, { dir = agentClisDir, log = () => {} } = {}) {
  let status = agentCliStatus(name, dir);
  if (!status.ok) {
    const cli = agentClis[name];
    installPinned(path.join(dir, name), cli.package, cli.version, log);
    status = agentCliStatus(name, dir);
    if (!status.ok)
      throw new Error(
        `${cli.package}@${cli.version} installed, but ${status.program} is missing: no package for ${platformKey}?`,
      );
  }
  linkProgram(status);
  return status;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  pinnedMain(Object.keys(agentClis), { status: agentCliStatus, install: installAgentCli, describe: (s) => s.bin });
