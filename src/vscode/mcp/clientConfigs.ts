import { existsSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LedgerError } from '../../core/errors';
import { writeFileDurable } from '../../core/files/durableWrite';
import type { ServerLaunch } from './serverLaunch';

/** MCP clients whose configuration file the extension can add the server to. */
export type ClientKind = 'claudeCode' | 'cursor' | 'claudeDesktop';

export const clientLabels: Record<ClientKind, string> = {
  claudeCode: 'Claude Code',
  cursor: 'Cursor',
  claudeDesktop: 'Claude Desktop',
};

/** The `mcpServers` entry the three clients share. */
export interface ServerEntry {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

export interface MergeResult {
  file: string;
  name: string;
  status: 'added' | 'updated' | 'unchanged';
  /** The other servers in the file, left exactly as they were. */
  otherServers: string[];
}

/**
 * Where each client reads its servers: project files for Claude Code (`.mcp.json`) and Cursor
 * (`.cursor/mcp.json`), the per-user file of Claude Desktop (or `override`).
 */
export function clientConfigPath(kind: ClientKind, workspace: string, override?: string): string {
  switch (kind) {
    case 'claudeCode':
      return path.join(workspace, '.mcp.json');
    case 'cursor':
      return path.join(workspace, '.cursor', 'mcp.json');
    case 'claudeDesktop':
      return override?.trim()
        ? path.resolve(override.trim().replace(/^~(?=$|[\\/])/, os.homedir()))
        : claudeDesktopDefaultPath();
  }
}

function claudeDesktopDefaultPath(): string {
  if (process.platform === 'darwin')
    return path.join(os.homedir(), 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (process.platform === 'win32')
    return path.join(
      process.env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'),
      'Claude',
      'claude_desktop_config.json',
    );
  return path.join(
    process.env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'),
    'Claude',
    'claude_desktop_config.json',
  );
}

/**
 * The name of our entry: project files hold one workspace, so `agent-ledger`; Claude Desktop's
 * file is per user, so each workspace gets its own entry.
 */
export function serverName(kind: ClientKind, workspace: string): string {
  if (kind !== 'claudeDesktop') return 'agent-ledger';
  const folder = path
    .basename(workspace)
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return folder ? `agent-ledger-${folder}` : 'agent-ledger';
}

export function toEntry(launch: ServerLaunch): ServerEntry {
  return Object.keys(launch.env).length
    ? { command: launch.command, args: launch.args, env: launch.env }
    : { command: launch.command, args: launch.args };
}

/**
 * Adds (or updates) `mcpServers[name]` in a client's JSON file, keeping every other key and
 * server as it was and the file's indentation. A file that is not JSON is refused, never
 * overwritten. Writes through a temp file + rename so a client never reads half a file.
 */
export function mergeServerEntry(file: string, name: string, entry: ServerEntry): MergeResult {
  let text: string | undefined;
  if (existsSync(file)) text = readFileSync(file, 'utf8');
  let root: Record<string, unknown> = {};
  if (text !== undefined && text.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new LedgerError(
        'ConfigError',
        `${file} is not valid JSON (${(err as Error).message}); fix it, then run the command again — it was left untouched.`,
        { file },
      );
    }
    if (!isObject(parsed))
      throw new LedgerError('ConfigError', `${file} does not hold a JSON object; it was left untouched.`, { file });
    root = parsed;
  }
  const servers = root.mcpServers ?? {};
  if (!isObject(servers))
    throw new LedgerError('ConfigError', `"mcpServers" in ${file} is not an object; it was left untouched.`, { file });
  const previous = servers[name];
  const otherServers = Object.keys(servers).filter((k) => k !== name);
  if (previous !== undefined && JSON.stringify(previous) === JSON.stringify(entry))
    return { file, name, status: 'unchanged', otherServers };
  // Keep an existing entry's extra keys (e.g. Cursor's `disabled`), replace what we own.
  const merged = isObject(previous) ? { ...previous, ...entry } : entry;
  if (isObject(previous) && !entry.env) delete merged.env;
  const next = { ...root, mcpServers: { ...servers, [name]: merged } };
  writeFileDurable(file, `${JSON.stringify(next, null, indentOf(text))}\n`);
  return { file, name, status: previous === undefined ? 'added' : 'updated', otherServers };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The indentation of an existing file (two spaces for a new one). */
function indentOf(text: string | undefined): string | number {
  const m = text ? /^[{[]\s*\n([ \t]+)\S/.exec(text) : null;
  return m ? m[1] : 2;
}
