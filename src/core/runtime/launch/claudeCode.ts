/**
 * Claude Code (`claude`) in print mode. Flags confirmed against:
 * - the CLI reference, https://docs.anthropic.com/en/docs/claude-code/cli-reference (`-p/--print`,
 *   `--output-format text|json|stream-json`, `--mcp-config`, `--strict-mcp-config`,
 *   `--permission-mode default|acceptEdits|plan|bypassPermissions`, `--allowedTools`,
 *   `--append-system-prompt`, `--model`, `--max-turns`);
 * - Anthropic's own SDK, which drives the same CLI: anthropics/claude-agent-sdk-python
 *   `_internal/transport/subprocess_cli.py` (`--mcp-config <file or JSON>`, `--strict-mcp-config`,
 *   `--allowedTools a,b` comma-joined, `--permission-mode`, `--max-turns`; values that may start
 *   with `-` bound as `--flag=value`), and its predecessor anthropics/claude-code-sdk-python, which
 *   ended string prompts with `--print -- <prompt>`.
 * `--mcp-config` and `--allowedTools` take several values (`<configs...>`), so every value here is
 * bound with `=` and the prompt comes after `--`: nothing after them can be swallowed as a value.
 * Environment references `${VAR}` in an MCP configuration are expanded by Claude Code in
 * `command`, `args`, `env`, `url` and `headers` (docs "Environment variable expansion in .mcp.json").
 */
import * as path from 'node:path';
import type { PermissionLevel } from '../../agents/agentPermissions';
import type { ClientLaunchInput, LaunchPlan } from './clientLaunch';
import { checkServers, mcpServersJson, permissionsOf, promptOnStdin } from './clientLaunch';
import type { RunUsage } from './runUsage';
import { emptyUsage, jsonObjects, num, str, truncateResult } from './runUsage';

/**
 * In print mode whatever is not allowed is denied (nobody can approve it). Never
 * `bypassPermissions`: Claude Code refuses it as root ("--dangerously-skip-permissions cannot be
 * used with root/sudo privileges"), which is how CI runs; `full` allows every command instead.
 */
const permissionModes: Record<PermissionLevel, string> = {
  read: 'default',
  edit: 'acceptEdits',
  test: 'acceptEdits',
  commit: 'acceptEdits',
  full: 'acceptEdits',
};

/** `Bash(<prefix>:*)`: the command and anything after it (Claude Code's permission rule syntax). */
export function bashRule(command: string): string {
  return `Bash(${command}:*)`;
}

/** `claude -p --output-format=json --mcp-config=<file> --strict-mcp-config … -- <prompt>`. */
export function claudeLaunch(input: ClientLaunchInput): LaunchPlan {
  const servers = input.mcpServers ?? [];
  checkServers(servers);
  const permissions = permissionsOf(input);
  const args = ['-p', '--output-format=json'];
  const files = [];
  if (servers.length > 0) {
    const file = path.join(input.configDir, 'claude-mcp.json');
    files.push({
      path: file,
      content: `${JSON.stringify(
        mcpServersJson(servers, (s) => ({ type: s.http ? 'http' : 'stdio' })),
        null,
        2,
      )}\n`,
    });
    // Only these servers: none of the user's or the project's own .mcp.json.
    args.push(`--mcp-config=${file}`, '--strict-mcp-config');
  }
  args.push(`--permission-mode=${permissionModes[permissions.level]}`);
  // `mcp__<server>` allows every tool of that server.
  const commands = permissions.level === 'full' ? ['Bash'] : permissions.commands.map(bashRule);
  const allowed = [...servers.map((s) => `mcp__${s.name}`), ...commands, ...(input.allowedTools ?? [])];
  if (allowed.length > 0) args.push(`--allowedTools=${allowed.join(',')}`);
  // A denial wins over an allowance: `git push` stays refused even when `git` is allowed.
  if (permissions.never.length > 0) args.push(`--disallowedTools=${permissions.never.map(bashRule).join(',')}`);
  if (input.appendSystemPrompt) args.push(`--append-system-prompt=${input.appendSystemPrompt}`);
  if (input.model) args.push(`--model=${input.model}`);
  if (input.maxTurns !== undefined) args.push(`--max-turns=${input.maxTurns}`);
  const viaStdin = promptOnStdin(input.prompt);
  if (!viaStdin) args.push('--', input.prompt);
  return {
    client: 'claude',
    program: 'claude',
    args,
    cwd: input.cwd,
    env: {},
    files,
    homes: [],
    stdin: viaStdin ? { kind: 'text', text: input.prompt } : { kind: 'ignore' },
    output: 'claude-json',
  };
}

/**
 * Tokens and cost of a `--output-format json` run: the `result` object (the last one when the
 * output is `stream-json` lines). Its `usage.input_tokens` excludes cached input, which
 * `cache_read_input_tokens` / `cache_creation_input_tokens` count.
 */
export function parseClaudeOutput(stdout: string): RunUsage | null {
  const result = jsonObjects(stdout)
    .filter((o) => o.type === 'result')
    .at(-1);
  if (!result) return null;
  const usage = (result.usage ?? {}) as Record<string, unknown>;
  return {
    ...emptyUsage,
    inputTokens: num(usage.input_tokens),
    outputTokens: num(usage.output_tokens),
    cacheReadTokens: num(usage.cache_read_input_tokens),
    cacheWriteTokens: num(usage.cache_creation_input_tokens),
    costUsd: num(result.total_cost_usd),
    turns: num(result.num_turns),
    sessionId: str(result.session_id),
    isError: typeof result.is_error === 'boolean' ? result.is_error : null,
    result: truncateResult(str(result.result)),
  };
}
