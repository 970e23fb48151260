/**
 * OpenAI Codex CLI (`codex exec`). Flags confirmed in openai/codex:
 * - codex-rs/exec/src/cli.rs: `--json` (JSONL events on stdout), the positional PROMPT ("if not
 *   provided as an argument (or if `-` is used), instructions are read from stdin"),
 *   `--skip-git-repo-check`; `--full-auto` is now a hidden legacy flag that only warns
 *   ("use `--sandbox workspace-write` instead"), so it is not used here;
 * - codex-rs/utils/cli/src/shared_options.rs: `-m/--model`, `-s/--sandbox`
 *   (read-only | workspace-write | danger-full-access), `-C/--cd <DIR>`,
 *   `--dangerously-bypass-approvals-and-sandbox`;
 * - codex-rs/utils/cli/src/config_override.rs: `-c/--config key=value`, dotted keys, the value
 *   parsed as TOML;
 * - docs/config.md and the MCP docs: `[mcp_servers.<name>]` with `command`, `args`, `env` and
 *   `env_vars` ("variables to allow/forward through to the server"); Codex passes MCP servers
 *   only a default whitelist of its own environment, so secrets are forwarded by name.
 * Codex has no flag taking an MCP configuration file, so the servers are given as `-c` overrides.
 * `codex exec` never asks for approval (approval policy "never"). docs/agent-clients.md has what
 * each setting does to Codex 0.169, checked by running it.
 */
import * as path from 'node:path';
import type { PermissionLevel } from '../../agents/agentPermissions';
import type { ClientLaunchInput, LaunchPermissions, LaunchPlan, McpServerLaunch } from './clientLaunch';
import { checkServers, permissionsOf, promptOnStdin, promptWithPreamble } from './clientLaunch';
import type { RunUsage } from './runUsage';
import { emptyUsage, jsonObjects, num, str, sum, truncateResult } from './runUsage';

/**
 * Codex cannot allow some commands and not others: its sandbox decides for every command alike.
 * `workspace-write` lets commands write in the working folder and the temporary folders only, with
 * no network; Git's own folders stay read-only unless given as writable roots (a commit).
 */
const sandboxArgs: Record<PermissionLevel, string> = {
  read: '--sandbox=read-only',
  edit: '--sandbox=workspace-write',
  test: '--sandbox=workspace-write',
  commit: '--sandbox=workspace-write',
  full: '--dangerously-bypass-approvals-and-sandbox',
};

/** A TOML basic string. */
export function tomlString(value: string): string {
  const escaped = value.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => {
    const named: Record<string, string> = {
      '\\': '\\\\',
      '"': '\\"',
      '\b': '\\b',
      '\t': '\\t',
      '\n': '\\n',
      '\f': '\\f',
      '\r': '\\r',
    };
    return named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `"${escaped}"`;
}

function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}

/**
 * `-c` overrides that declare one MCP server: stdio (`command`, `args`, `env`, `env_vars`), or
 * Streamable HTTP (`url`, and `bearer_token_env_var`: Codex reads the token from that variable).
 * `required`: without it `codex exec` starts its first turn before a slow server is up and the
 * model never gets its tools (a server taking 4 s: none of its tools in the run); with it Codex
 * waits, and a server that fails to start ends the run at once. `default_tools_approval_mode =
 * "approve"`: with the default `auto`, `codex exec` refuses every tool annotated destructive or
 * open-world ("MCP tool call requires approval, but approval policy is never"); this server's
 * tools are the ones the agent was started to use.
 */
export function codexServerOverrides(server: McpServerLaunch): string[] {
  const key = `mcp_servers.${server.name}`;
  if (server.http)
    return [
      `${key}.url=${tomlString(server.http.url)}`,
      `${key}.bearer_token_env_var=${tomlString(server.http.tokenEnv)}`,
    ].flatMap((o) => ['-c', o]);
  const overrides = [
    `${key}.command=${tomlString(server.command)}`,
    `${key}.args=[${server.args.map(tomlString).join(', ')}]`,
  ];
  const env = Object.entries(server.env ?? {});
  if (env.length > 0)
    overrides.push(`${key}.env={ ${env.map(([k, v]) => `${tomlKey(k)} = ${tomlString(v)}`).join(', ')} }`);
  if (server.forwardEnv?.length) overrides.push(`${key}.env_vars=[${server.forwardEnv.map(tomlString).join(', ')}]`);
  overrides.push(`${key}.required=true`, `${key}.default_tools_approval_mode="approve"`);
  return overrides.flatMap((o) => ['-c', o]);
}

/** Whether the permissions let the agent commit, which needs Git's folders writable. */
function commits(permissions: LaunchPermissions): boolean {
  return permissions.commands.includes('git commit');
}

/** The rules file of the run: every command it may never run, forbidden (Codex's `prefix_rule`). */
export function codexRules(never: readonly string[]): string {
  return never
    .map(
      (command) =>
        `prefix_rule(pattern = [${command.split(' ').map(tomlString).join(', ')}], decision = "forbidden", justification = "Agent Ledger: this agent may never run ${command}")\n`,
    )
    .join('');
}

/** Where the user's Codex keeps its configuration, login and rules. */
function codexHomeOf(env: Readonly<Record<string, string>> | undefined): string | null {
  if (env?.CODEX_HOME) return env.CODEX_HOME;
  return env?.HOME ? path.join(env.HOME, '.codex') : null;
}

/**
 * `codex exec --json --sandbox=… --cd=<dir> --skip-git-repo-check [-c …] -- <prompt>`, with
 * `CODEX_HOME` a private copy of the user's (codexHomeOf) holding the run's rules file: Codex
 * reads rules only from the `rules/` folder beside a configuration layer, and no flag names one.
 */
export function codexLaunch(input: ClientLaunchInput): LaunchPlan {
  const servers = input.mcpServers ?? [];
  checkServers(servers);
  const permissions = permissionsOf(input);
  const args = ['exec', '--json', sandboxArgs[permissions.level], `--cd=${input.cwd}`, '--skip-git-repo-check'];
  if (input.model) args.push(`--model=${input.model}`);
  for (const server of servers) args.push(...codexServerOverrides(server));
  const gitDirs = [...new Set(permissions.gitDirs ?? [])];
  if (permissions.level !== 'read' && permissions.level !== 'full' && commits(permissions) && gitDirs.length > 0)
    args.push('-c', `sandbox_workspace_write.writable_roots=[${gitDirs.map(tomlString).join(', ')}]`);
  const home = path.join(input.configDir, 'codex-home');
  const files =
    permissions.never.length > 0
      ? [{ path: path.join(home, 'rules', 'agent-ledger.rules'), content: codexRules(permissions.never) }]
      : [];
  const prompt = promptWithPreamble(input);
  const viaStdin = promptOnStdin(prompt);
  args.push('--', viaStdin ? '-' : prompt);
  return {
    client: 'codex',
    program: 'codex',
    args,
    cwd: input.cwd,
    env: files.length > 0 ? { CODEX_HOME: home } : {},
    files,
    homes: files.length > 0 ? [{ path: home, source: codexHomeOf(input.env) }] : [],
    stdin: viaStdin ? { kind: 'text', text: prompt } : { kind: 'ignore' },
    output: 'codex-jsonl',
  };
}

/**
 * Tokens of a `codex exec --json` run (codex-rs/exec/src/exec_events.rs): the sum of every
 * `turn.completed` event's `usage` (`input_tokens` includes `cached_input_tokens`), the thread id
 * of `thread.started`, an error from `turn.failed` or `error`. Codex prints no cost.
 */
export function parseCodexOutput(stdout: string): RunUsage | null {
  const events = jsonObjects(stdout).filter((e) => typeof e.type === 'string');
  if (events.length === 0) return null;
  const usages = events
    .filter((e) => e.type === 'turn.completed')
    .map((e) => (e.usage ?? {}) as Record<string, unknown>);
  const input = sum(usages.map((u) => num(u.input_tokens)));
  const cached = sum(usages.map((u) => num(u.cached_input_tokens)));
  const thread = events.find((e) => e.type === 'thread.started');
  const lastMessage = events
    .filter((e) => e.type === 'item.completed')
    .map((e) => (e.item ?? {}) as Record<string, unknown>)
    .filter((item) => item.type === 'agent_message')
    .at(-1);
  return {
    ...emptyUsage,
    inputTokens: input === null ? null : input - (cached ?? 0),
    cacheReadTokens: cached,
    outputTokens: sum(usages.map((u) => num(u.output_tokens))),
    reasoningTokens: sum(usages.map((u) => num(u.reasoning_output_tokens))),
    turns: usages.length,
    sessionId: str(thread?.thread_id),
    isError: events.some((e) => e.type === 'turn.failed' || e.type === 'error'),
    result: truncateResult(str(lastMessage?.text)),
  };
}
