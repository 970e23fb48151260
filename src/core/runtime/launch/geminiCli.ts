/**
 * Gemini CLI (`gemini`) in headless mode. Flags confirmed in google-gemini/gemini-cli
 * packages/cli/src/config/config.ts (yargs, `.strict()`: unknown options are refused):
 * `-p/--prompt` ("Prompt. Appended to input on stdin (if any)"), `-m/--model`,
 * `--approval-mode default|auto_edit|yolo` (exclusive with `-y/--yolo`), `-o/--output-format
 * text|json`, `--allowed-mcp-server-names`, `--policy`, `--skip-trust`. The headless reference
 * (docs/cli/headless.md) gives the JSON output: `response`, `stats`, `error`.
 *
 * Where its settings go, checked with 0.61 (docs/agent-clients.md):
 * - `--skip-trust`: every new worktree is a folder never trusted interactively, where it exits
 *   55 ("not running in a trusted directory") without it.
 * - MCP servers are read from settings only. The system settings file
 *   (`GEMINI_CLI_SYSTEM_SETTINGS_PATH`) is skipped unless it and every folder above it are owned
 *   by root and not group- or world-writable — never true of a run's folder (under /tmp, or owned
 *   by the user) — and the run then goes on without the ledger's tools and exits 0. Workspace
 *   settings would be a change of the task. So the run gets its own `GEMINI_CLI_HOME`: a private
 *   copy of the user's `.gemini` folder (their login and files linked in) whose `settings.json`
 *   is theirs with our servers laid over it.
 * - With `GOOGLE_GEMINI_BASE_URL` set it picks a "gateway" auth type that `-p` refuses: when the
 *   run has `GEMINI_API_KEY` and the user's settings choose no auth type, it is set to the key's.
 * Settings strings expand `$VAR` / `${VAR}` from the environment (configuration docs).
 */
import * as path from 'node:path';
import type { PermissionLevel } from '../../agents/agentPermissions';
import type { ClientLaunchInput, LaunchPermissions, LaunchPlan } from './clientLaunch';
import { checkServers, mcpServersJson, permissionsOf, promptOnStdin, promptWithPreamble } from './clientLaunch';
import type { RunUsage } from './runUsage';
import { emptyUsage, jsonObjects, num, str, sum, truncateResult } from './runUsage';

/** Under `auto_edit` it edits, and runs only the shell commands a policy rule allows. */
const approvalModes: Record<PermissionLevel, string> = {
  read: 'default',
  edit: 'auto_edit',
  test: 'auto_edit',
  commit: 'auto_edit',
  full: 'yolo',
};

function tomlList(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(', ')}]`;
}

/**
 * The run's policy (`--policy`): its commands allowed for the shell tool, its never-commands
 * denied at a higher priority (a denial wins), as Gemini CLI's policy engine reads TOML rules.
 */
export function geminiPolicy(permissions: LaunchPermissions): string {
  const rules: string[] = [];
  if (permissions.level !== 'full' && permissions.commands.length > 0)
    rules.push(
      `[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ${tomlList(permissions.commands)}\ndecision = "allow"\npriority = 100\n`,
    );
  if (permissions.never.length > 0)
    rules.push(
      `[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ${tomlList(permissions.never)}\ndecision = "deny"\npriority = 200\n`,
    );
  return rules.join('\n');
}

/** The auth type the run's environment provides, for settings that choose none. */
function authTypeOf(env: Readonly<Record<string, string>> | undefined): string | undefined {
  if (env?.GOOGLE_GENAI_USE_VERTEXAI === 'true') return 'vertex-ai';
  if (env?.GEMINI_API_KEY) return 'gemini-api-key';
  return undefined;
}

/** The user's Gemini CLI home: `$GEMINI_CLI_HOME`, else the home folder (its `.gemini` holds settings and login). */
function geminiHomeOf(env: Readonly<Record<string, string>> | undefined): string | null {
  return env?.GEMINI_CLI_HOME || env?.HOME || null;
}

/** `gemini --output-format=json --approval-mode=… --skip-trust [--policy=…] --allowed-mcp-server-names=… --prompt=<prompt>`. */
export function geminiLaunch(input: ClientLaunchInput): LaunchPlan {
  const servers = input.mcpServers ?? [];
  checkServers(servers);
  const permissions = permissionsOf(input);
  const home = path.join(input.configDir, 'gemini-home');
  const userHome = geminiHomeOf(input.env);
  // `trust`: the ledger's own tools run without a confirmation nobody could give.
  // An HTTP server is `httpUrl` (Gemini CLI reads `url` as the older SSE transport).
  const settings: Record<string, unknown> = mcpServersJson(servers, () => ({ trust: true }), 'httpUrl');
  if (input.maxTurns !== undefined) settings.model = { maxSessionTurns: input.maxTurns };
  const authType = authTypeOf(input.env);
  const files: LaunchPlan['files'] = [
    {
      path: path.join(home, '.gemini', 'settings.json'),
      content: `${JSON.stringify(settings, null, 2)}\n`,
      ...(userHome ? { mergeJsonFrom: path.join(userHome, '.gemini', 'settings.json') } : {}),
      ...(authType ? { jsonDefaults: { security: { auth: { selectedType: authType } } } } : {}),
    },
  ];
  const args = ['--output-format=json', `--approval-mode=${approvalModes[permissions.level]}`, '--skip-trust'];
  const policy = geminiPolicy(permissions);
  if (policy) {
    const file = path.join(input.configDir, 'gemini-policy.toml');
    files.push({ path: file, content: policy });
    args.push(`--policy=${file}`);
  }
  if (servers.length > 0) args.push(`--allowed-mcp-server-names=${servers.map((s) => s.name).join(',')}`);
  if (input.allowedTools?.length) args.push(`--allowed-tools=${input.allowedTools.join(',')}`);
  if (input.model) args.push(`--model=${input.model}`);
  const prompt = promptWithPreamble(input);
  const viaStdin = promptOnStdin(prompt);
  // Bound with `=`: a prompt starting with "-" stays the prompt.
  if (!viaStdin) args.push(`--prompt=${prompt}`);
  return {
    client: 'gemini',
    program: 'gemini',
    args,
    cwd: input.cwd,
    env: { GEMINI_CLI_HOME: home },
    files,
    homes: [{ path: path.join(home, '.gemini'), source: userHome ? path.join(userHome, '.gemini') : null }],
    stdin: viaStdin ? { kind: 'text', text: prompt } : { kind: 'ignore' },
    output: 'gemini-json',
  };
}

/**
 * Tokens of a `--output-format json` run: `stats.models.<model>.tokens` summed over models
 * (`prompt` includes `cached`; `thoughts` are output tokens spent reasoning). Gemini CLI prints
 * no cost.
 */
export function parseGeminiOutput(stdout: string): RunUsage | null {
  const output = jsonObjects(stdout).find((o) => 'response' in o || 'stats' in o || 'error' in o);
  if (!output) return null;
  const stats = (output.stats ?? {}) as Record<string, unknown>;
  const tokens = Object.values((stats.models ?? {}) as Record<string, { tokens?: Record<string, unknown> }>).map(
    (m) => m.tokens ?? {},
  );
  const prompt = sum(tokens.map((t) => num(t.prompt)));
  const cached = sum(tokens.map((t) => num(t.cached)));
  const candidates = sum(tokens.map((t) => num(t.candidates)));
  const thoughts = sum(tokens.map((t) => num(t.thoughts)));
  return {
    ...emptyUsage,
    inputTokens: prompt === null ? null : prompt - (cached ?? 0),
    cacheReadTokens: cached,
    outputTokens: candidates === null && thoughts === null ? null : (candidates ?? 0) + (thoughts ?? 0),
    reasoningTokens: thoughts,
    sessionId: str(output.session_id),
    isError: output.error !== undefined && output.error !== null,
    result: truncateResult(str(output.response)),
  };
}
