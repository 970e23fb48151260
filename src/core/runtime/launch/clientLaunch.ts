/**
 * How an agent CLI is launched for a real non-interactive run, as data: the program, its
 * arguments (every value bound to its option or placed after `--`, so text from a task, an agent
 * or a prompt can never become an option), the configuration files to write first, and what its
 * stdout will look like. Pure: the process supervisor (src/processes) writes the files and runs it.
 *
 * Secrets never appear here. The MCP server of the ledger gets them by *name*: the client's own
 * environment holds the values (`ProcessSpec.secretEnv`), and each client's configuration says
 * "pass variable X through" (Claude Code and Gemini CLI: `${X}` in the server's `env`, expanded by
 * the client; Codex: `env_vars = ["X"]`), so no file, argument or log line holds the value.
 */
import type { StdinSpec } from '../../ports/processes';
import type { ResolvedPermissions } from '../../agents/agentPermissions';
import { levelOfAccess } from '../../agents/agentPermissions';
import { ProcessError } from '../processErrors';

/** The clients with built-in adapters (the agent PM contract's `ai_type`). */
export type ClientKind = 'claude' | 'codex' | 'gemini';

/** How much the agent may do without asking (nobody is there to answer): the older shorthand of {@link LaunchPermissions}. */
export type ClientAccess =
  /** Read and call the allowed tools only. */
  | 'readOnly'
  /** Edit files in its working folder (the task's worktree). */
  | 'workspaceWrite'
  /** Everything, no sandbox: only inside an externally sandboxed machine. */
  | 'fullAccess';

/**
 * An MCP server the agent must be wired to: this ledger's `agent-ledger mcp serve`, which the
 * client starts (stdio: `command`, `args`), or the team's HTTP server it connects to (`http`).
 */
export interface McpServerLaunch {
  /** `[A-Za-z0-9_-]+`: the client's name for it (Claude Code's tools become `mcp__<name>__<tool>`). */
  name: string;
  /** Absolute path of the program (the client starts it; its PATH may differ from ours). Unused with `http`. */
  command: string;
  args: readonly string[];
  /** Plain variables for the server (never a secret: they are written into configuration). */
  env?: Readonly<Record<string, string>>;
  /** Names of variables the server receives from the client's environment: how secrets travel. */
  forwardEnv?: readonly string[];
  /**
   * A Streamable HTTP server instead of a command: its URL, and the name of the variable that holds
   * the bearer token in the client's environment (the configuration says `Bearer ${NAME}`, never the token).
   */
  http?: { url: string; tokenEnv: string };
}

export interface ClientLaunchInput {
  prompt: string;
  /** Absolute working folder of the agent (the task's worktree). */
  cwd: string;
  /** Absolute folder private to this run where configuration files are written. */
  configDir: string;
  mcpServers?: readonly McpServerLaunch[];
  model?: string;
  /**
   * What the agent may do (its definition's `permissions:`, resolved): each client gets it in its
   * own terms (clientPermissions.ts). Default: {@link access}'s level, else `edit` with no command.
   */
  permissions?: LaunchPermissions;
  /** The older shorthand: `readOnly` = level read, `workspaceWrite` = edit, `fullAccess` = full. */
  access?: ClientAccess;
  /**
   * The environment the client will run with (HOME, CODEX_HOME, GEMINI_CLI_HOME, its API key
   * variables): where its own configuration folder is, so a run's private copy of it keeps the
   * user's login and settings, and which authentication it will use. Never written anywhere.
   */
  env?: Readonly<Record<string, string>>;
  /** Claude Code appends it to its system prompt; the other clients have no such flag, so it leads the prompt. */
  appendSystemPrompt?: string;
  /** Claude Code `--max-turns`; Gemini CLI `model.maxSessionTurns`; Codex has no turn limit (the wall clock still applies). */
  maxTurns?: number;
  /** Tools allowed without asking, in the client's own syntax, besides the MCP servers' tools. */
  allowedTools?: readonly string[];
}

/** The permissions of one run, and what a sandbox needs to let it commit. */
export interface LaunchPermissions extends ResolvedPermissions {
  /**
   * Git's folders of the worktree (the repository's common folder and the worktree's own): a
   * commit writes there, so a sandboxed client (Codex) gets them as writable roots.
   */
  gitDirs?: readonly string[];
}

/** The permissions of a launch: given, or the level of `access` (default `edit`), with no command. */
export function permissionsOf(input: ClientLaunchInput): LaunchPermissions {
  if (input.permissions) return input.permissions;
  return { level: levelOfAccess(input.access ?? 'workspaceWrite'), commands: [], never: [] };
}

/** What a client prints on stdout, for the parsers of runUsage.ts. */
export type OutputFormat = 'claude-json' | 'codex-jsonl' | 'gemini-json' | 'text';

/** A file to write (mode 0600) before the launch. */
export interface LaunchFile {
  path: string;
  content: string;
  /**
   * `content` is a JSON object laid over the one in this file when it exists (the user's own
   * settings): objects merged key by key, the plan's values winning.
   */
  mergeJsonFrom?: string;
  /** A JSON object whose values apply only where neither the plan nor the user's file sets them. */
  jsonDefaults?: Record<string, unknown>;
}

/**
 * A private copy of a client's own configuration folder for one run: every entry of `source` is
 * linked in (so the user's login, settings and rules are the ones used, and a refreshed login
 * is written back to the user's file), except where the plan writes a file; a folder holding
 * such a file is made here, its other entries linked one by one. The user's folder is never
 * written. Used where a client reads its MCP servers, rules or trust from its home only.
 */
export interface LaunchHome {
  path: string;
  /** The user's folder, or null when it has none. */
  source: string | null;
}

export interface LaunchPlan {
  client: ClientKind | 'command';
  /** A bare name found on the child's PATH, or an absolute path. */
  program: string;
  args: string[];
  /** The working folder (the input's). */
  cwd: string;
  /** Variables to add to the child's environment (not secret). */
  env: Record<string, string>;
  files: LaunchFile[];
  /** Private configuration folders made before the files are written. */
  homes: LaunchHome[];
  /** `ignore` (end of file at once: these CLIs read stdin when it is not a TTY), or the prompt when it is too long for argv. */
  stdin: StdinSpec;
  output: OutputFormat;
}

/**
 * Above this the prompt goes through stdin: Linux refuses any single argument over 128 KiB
 * (MAX_ARG_STRLEN), and all three clients read the prompt from stdin in non-interactive mode.
 */
export const maxPromptArgBytes = 100 * 1024;

export function promptOnStdin(prompt: string): boolean {
  return Buffer.byteLength(prompt, 'utf8') > maxPromptArgBytes;
}

const serverName = /^[A-Za-z0-9_-]{1,64}$/;
const envName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Checks names that end up in configuration keys and `${…}` references. */
export function checkServers(servers: readonly McpServerLaunch[]): void {
  const seen = new Set<string>();
  for (const server of servers) {
    if (!serverName.test(server.name) || seen.has(server.name)) {
      throw new ProcessError(
        'invalidLaunch',
        `"${server.name}" is not a usable MCP server name: letters, digits, "_" and "-", each name once.`,
        { name: server.name },
      );
    }
    seen.add(server.name);
    if (server.http && !/^https?:\/\/[^\s"'`$\\]+$/.test(server.http.url))
      throw new ProcessError('invalidLaunch', `"${server.http.url}" is not a usable MCP server URL.`, {
        url: server.http.url,
      });
    for (const name of [
      ...Object.keys(server.env ?? {}),
      ...(server.forwardEnv ?? []),
      ...(server.http ? [server.http.tokenEnv] : []),
    ]) {
      if (!envName.test(name))
        throw new ProcessError('invalidLaunch', `"${name}" is not an environment variable name.`, { name });
    }
  }
}

/**
 * The server's `env` for clients that expand `${NAME}` in their MCP configuration (Claude Code,
 * Gemini CLI): plain values as given, forwarded ones as a reference to the client's own variable.
 */
export function envWithReferences(server: McpServerLaunch): Record<string, string> {
  const env: Record<string, string> = { ...server.env };
  for (const name of server.forwardEnv ?? []) env[name] = `\${${name}}`;
  return env;
}

/** The prompt with the text the client cannot take as a system prompt in front of it. */
export function promptWithPreamble(input: ClientLaunchInput): string {
  return input.appendSystemPrompt ? `${input.appendSystemPrompt}\n\n${input.prompt}` : input.prompt;
}

/**
 * `{ mcpServers: … }`, the configuration shape Claude Code, Gemini CLI, Cursor and most clients
 * read. An HTTP server is `{ type: "http", url, headers }` (`urlKey`: Gemini CLI names it
 * `httpUrl`), its Authorization header a reference to the token's variable, which the client expands.
 */
export function mcpServersJson(
  servers: readonly McpServerLaunch[],
  extra: (server: McpServerLaunch) => Record<string, unknown> = () => ({}),
  urlKey: 'url' | 'httpUrl' = 'url',
): Record<string, unknown> {
  const mcpServers: Record<string, unknown> = {};
  for (const server of servers) {
    mcpServers[server.name] = server.http
      ? {
          ...(urlKey === 'url' ? { type: 'http' } : {}),
          [urlKey]: server.http.url,
          headers: { Authorization: `Bearer \${${server.http.tokenEnv}}` },
          ...extra(server),
        }
      : {
          command: server.command,
          args: [...server.args],
          env: envWithReferences(server),
          ...extra(server),
        };
  }
  return { mcpServers };
}
