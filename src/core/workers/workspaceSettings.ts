/**
 * How agents work in this repository, as the project declares it in `.agent-ledger/workspace.yaml`
 * (committed with the project), read from the main checkout only — never from a task's worktree,
 * where an agent could change it:
 *
 * ```yaml
 * commands: [npm test, npm run build]   # its test and build commands (default: package.json's)
 * setup: npm ci                         # run once in each new worktree before the agent starts
 * link: [node_modules]                  # folders of the main checkout linked into each new worktree
 * worktrees:
 *   budget: 5GB                         # worktrees of landed or abandoned tasks go above this
 * ```
 *
 * A missing file means: the commands found in package.json, no setup, no links, no budget.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';
import { LedgerError } from '../errors';
import { checkCommand } from '../agents/agentPermissions';
import { ledgerFolder } from '../ledgerFiles';
import { readFileConfined } from '../files/confinedPath';

export const workspaceSettingsFile = `${ledgerFolder}/workspace.yaml`;

export interface WorkspaceSettings {
  /** The project's test and build commands (prefixes of words): what agents at level `test` and above may run. */
  commands: string[];
  /** Where `commands` came from. */
  commandsFrom: 'workspace.yaml' | 'package.json' | 'none';
  /** Shell commands run in order, once, in each new worktree before its agent starts (the project's own, like npm scripts). */
  setup: string[];
  /** Workspace-relative folders linked (symbolic links) into each new worktree, e.g. `node_modules`. */
  link: string[];
  /** Disk budget of the task worktrees in bytes, or null for none. */
  worktreeBudgetBytes: number | null;
}

/** package.json scripts an agent may run by default, and the command that runs each. */
const detectedScripts: ReadonlyArray<[string, string]> = [
  ['test', 'npm test'],
  ['build', 'npm run build'],
  ['lint', 'npm run lint'],
  ['typecheck', 'npm run typecheck'],
];

/** Reads the settings of `workspace`; a file that cannot be used is a ConfigError naming it and the field. */
export function readWorkspaceSettings(workspace: string): WorkspaceSettings {
  const file = path.join(workspace, workspaceSettingsFile);
  const data = fs.existsSync(file) ? parse(readFileConfined(workspace, file)) : {};
  const fail = (message: string): never => {
    throw new LedgerError('ConfigError', `${workspaceSettingsFile}: ${message}`, { file: workspaceSettingsFile });
  };
  const known = ['commands', 'setup', 'link', 'worktrees'];
  const unknown = Object.keys(data).filter((k) => !known.includes(k));
  if (unknown.length > 0) fail(`unknown field(s) ${unknown.join(', ')} (accepted: ${known.join(', ')})`);

  let commands: string[];
  let commandsFrom: WorkspaceSettings['commandsFrom'];
  if (data.commands !== undefined) {
    commands = stringList(data.commands, 'commands', fail).map((c) => c.replace(/\s+/g, ' '));
    for (const command of commands) {
      const problem = checkCommand(command);
      if (problem) fail(`commands: ${problem}`);
    }
    commandsFrom = 'workspace.yaml';
  } else {
    commands = packageCommands(workspace);
    commandsFrom = commands.length > 0 ? 'package.json' : 'none';
  }

  const setup = data.setup === undefined ? [] : stringList(data.setup, 'setup', fail);
  if (setup.some((c) => c.includes('\u0000'))) fail('setup: a command cannot hold a NUL character');

  const link = data.link === undefined ? [] : stringList(data.link, 'link', fail).map(cleanFolder);
  for (const folder of link)
    if (folder === '' || folder.startsWith('/') || folder.split('/').includes('..') || folder.startsWith('.git'))
      fail(`link: "${folder}" must be a folder of the repository, without ".." (and not Git's own)`);

  let worktreeBudgetBytes: number | null = null;
  if (data.worktrees !== undefined) {
    const w = data.worktrees;
    if (w === null || typeof w !== 'object' || Array.isArray(w)) fail('worktrees: must be a mapping (budget: 5GB)');
    const block = w as Record<string, unknown>;
    const extra = Object.keys(block).filter((k) => k !== 'budget');
    if (extra.length > 0) fail(`worktrees: unknown field(s) ${extra.join(', ')} (accepted: budget)`);
    if (block.budget !== undefined) worktreeBudgetBytes = parseSize(block.budget, 'worktrees.budget', fail);
  }
  return { commands, commandsFrom, setup, link, worktreeBudgetBytes };
}

function parse(text: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = text.trim() === '' ? {} : YAML.parse(text);
  } catch (err) {
    throw new LedgerError(
      'ConfigError',
      `${workspaceSettingsFile} is not valid YAML: ${err instanceof Error ? err.message : String(err)}`,
      { file: workspaceSettingsFile },
    );
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    throw new LedgerError('ConfigError', `${workspaceSettingsFile} must be a YAML mapping (commands:, setup:, …)`, {
      file: workspaceSettingsFile,
    });
  return data as Record<string, unknown>;
}

function stringList(value: unknown, key: string, fail: (m: string) => never): string[] {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((v) => typeof v === 'string' && v.trim() !== ''))
    fail(`${key}: must be a text or a list of texts`);
  return (list as string[]).map((v) => v.trim());
}

function cleanFolder(folder: string): string {
  return folder.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
}

/** `5GB`, `500 MB`, `1.5 GiB` or a number of bytes. */
export function parseSize(value: unknown, key: string, fail: (m: string) => never): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return Math.round(value);
  const match = typeof value === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B?|B)?\s*$/i.exec(value) : null;
  if (!match) return fail(`${key}: must be a size such as 5GB or 500MB (got ${JSON.stringify(value)})`);
  const unit = (match[2] ?? 'B').toUpperCase().replace(/I?B$/, '');
  const power = ['', 'K', 'M', 'G', 'T'].indexOf(unit);
  return Math.round(Number(match[1]) * 1024 ** power);
}

/** The test and build scripts package.json declares, as the commands that run them. */
function packageCommands(workspace: string): string[] {
  const file = path.join(workspace, 'package.json');
  if (!fs.existsSync(file)) return [];
  try {
    const scripts = (JSON.parse(readFileConfined(workspace, file)) as { scripts?: Record<string, unknown> }).scripts;
    if (!scripts || typeof scripts !== 'object') return [];
    return detectedScripts.filter(([name]) => typeof scripts[name] === 'string').map(([, command]) => command);
  } catch {
    // A package.json that does not parse declares nothing; npm will say what is wrong with it.
    return [];
  }
}
