import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import * as path from 'node:path';
import { quote } from 'shell-quote';
import { familyInfos } from '../../mcp/families';
import { features } from '../../mcp/features';
import { serverNodeFlags } from '../../app/serverNodeFlags';

const families: readonly string[] = familyInfos.map((f) => f.name);
const defaultFamilies: readonly string[] = familyInfos.filter((f) => f.enabledByDefault).map((f) => f.name);
/** Single features of a family (`resources`, `locks`…) the setting may name besides whole families. */
const featureFamily = new Map(features.map((f) => [f.name, f.family]));

/**
 * How to start `agent-ledger mcp serve` for one workspace folder. Plain Node (no `vscode`), so
 * the same launch line feeds VS Code's own server definition, the client config files and
 * "Copy MCP server command".
 */
export interface ServerLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * `--enable-x` / `--disable-x` flags turning the default families into `selected` (unknown names
 * are ignored). A feature named without its family adds just that feature (`--enable-resources`).
 */
export function familyFlags(selected: readonly string[]): string[] {
  const wanted = new Set(selected.filter((f) => families.includes(f)));
  const flags: string[] = [];
  for (const f of families) {
    const isDefault = defaultFamilies.includes(f);
    if (wanted.has(f) && !isDefault) flags.push(`--enable-${f}`);
    if (!wanted.has(f) && isDefault) flags.push(`--disable-${f}`);
  }
  for (const [feature, family] of featureFamily)
    if (selected.includes(feature) && !wanted.has(family)) flags.push(`--enable-${feature}`);
  return flags;
}

/** The families and features a setting value selects, in canonical order (what the definition's version names). */
export function selectedFamilies(setting: unknown): string[] {
  const list = Array.isArray(setting)
    ? setting.filter((f): f is string => typeof f === 'string')
    : [...defaultFamilies];
  return [...families, ...featureFamily.keys()].filter((f) => list.includes(f));
}

/**
 * The arguments after the Node (or Electron-as-Node) executable: the server's Node flags
 * (serverNodeFlags.ts), the script, then `mcp serve`. `worktreesDir`: the user's
 * `agentLedger.worktreesDir`, passed as `--worktrees-dir`.
 */
export function serverArgs(
  cliPath: string,
  workspace: string,
  selected: readonly string[],
  worktreesDir?: string,
): string[] {
  return [
    ...serverNodeFlags,
    cliPath,
    'mcp',
    'serve',
    '--workspace',
    workspace,
    ...familyFlags(selected),
    ...(worktreesDir ? ['--worktrees-dir', worktreesDir] : []),
  ];
}

/**
 * The editor's own runtime: VS Code's Electron binary (or code-server's Node) runs plain Node
 * scripts with ELECTRON_RUN_AS_NODE=1, so no system Node is needed.
 */
export function editorRuntimeLaunch(
  cliPath: string,
  workspace: string,
  selected: readonly string[],
  worktreesDir?: string,
): ServerLaunch {
  return {
    command: process.execPath,
    args: serverArgs(cliPath, workspace, selected, worktreesDir),
    env: { ELECTRON_RUN_AS_NODE: '1' },
  };
}

/**
 * For clients outside the editor (Claude Code, Cursor, Claude Desktop, a terminal): a Node.js
 * 20.19+ from PATH when there is one — the editor's binary moves with every update — else the
 * editor's runtime. `bareNode` writes `node` instead of its absolute path, for project files
 * that other machines read.
 */
export function externalLaunch(
  cliPath: string,
  workspace: string,
  selected: readonly string[],
  options: { bareNode: boolean; worktreesDir?: string },
): ServerLaunch {
  const node = findNode();
  if (!node) return editorRuntimeLaunch(cliPath, workspace, selected, options.worktreesDir);
  return {
    command: options.bareNode ? 'node' : node,
    args: serverArgs(cliPath, workspace, selected, options.worktreesDir),
    env: {},
  };
}

/** A line to paste into a POSIX shell. */
export function shellLine(launch: ServerLaunch): string {
  const env = Object.entries(launch.env).map(([k, v]) => `${k}=${quote([v])}`);
  return [...env, quote([launch.command]), ...launch.args.map(shellArg)].join(' ');
}

/** An argument as typed: `--max-semi-space-size=1` stays so (`=` is plain text after the command word), anything else quoted. */
function shellArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : quote([arg]);
}

let cachedNode: string | null | undefined;

/** An executable `node` on PATH whose major version is at least 20, or null. */
export function findNode(): string | null {
  if (cachedNode !== undefined) return cachedNode;
  cachedNode = null;
  const names = process.platform === 'win32' ? ['node.exe'] : ['node'];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (!isExecutable(candidate)) continue;
      const out = spawnSync(candidate, ['--version'], { encoding: 'utf8', timeout: 3000 });
      const major = Number(/^v(\d+)\./.exec(out.stdout ?? '')?.[1] ?? 0);
      if (major >= 20) return (cachedNode = candidate);
    }
  }
  return cachedNode;
}

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
