/**
 * Gemini CLI (`gemini`) in headless mode. Flags confirmed in google-gemini/gemini-cli
 * packages/cli/src/config/config.ts (yargs, `.strict()`: unknown options are refused):
 * `-p/--prompt` ("Prompt. Appended to input on stdin (if any)"), `-m/--model`,
 * `--approval-mode default|auto_edit|yolo` (exclusive with `-y/--yolo`), `-o/--output-format
 * text|json`, `--allowed-mcp-server-names`, `--allowed-tools`. The headless reference
 * (docs/cli/headless.md) gives the JSON output: `response`, `stats`, `error`.
 * MCP servers: `mcpServers` in a settings file. The system settings file is taken from
 * `GEMINI_CLI_SYSTEM_SETTINGS_PATH` (`getSystemSettingsPath()` in the CLI's settings), so the
 * run gets its own file outside the worktree: a `.gemini/settings.json` written into the
 * worktree would show up as a change of the task, and is ignored in an untrusted folder.
 * Settings strings expand `$VAR` / `${VAR}` from the environment (configuration docs).
 */
import * as path from 'node:path';
import type { ClientAccess, ClientLaunchInput, LaunchPlan } from './clientLaunch';
import { checkServers, mcpServersJson, promptOnStdin, promptWithPreamble } from './clientLaunch';
import type { RunUsage } from './runUsage';
import { emptyUsage, jsonObjects, num, str, sum, truncateResult } from './runUsage';

const approvalModes: Record<ClientAccess, string> = {
  readOnly: 'default',
  workspaceWrite: 'auto_edit',
  fullAccess: 'yolo',
};

/** The variable Gemini CLI reads its system settings path from. */
export const geminiSettingsVariable = 'GEMINI_CLI_SYSTEM_SETTINGS_PATH';

/** `gemini --output-format=json --approval-mode=… --allowed-mcp-server-names=… --prompt=<prompt>`. */
export function geminiLaunch(input: ClientLaunchInput): LaunchPlan {
  const servers = input.mcpServers ?? [];
  checkServers(servers);
  const settingsFile = path.join(input.configDir, 'gemini-settings.json');
  // `trust`: the ledger's own tools run without a confirmation nobody could give.
  // An HTTP server is `httpUrl` (Gemini CLI reads `url` as the older SSE transport).
  const settings: Record<string, unknown> = mcpServersJson(servers, () => ({ trust: true }), 'httpUrl');
  if (input.maxTurns !== undefined) settings.model = { maxSessionTurns: input.maxTurns };
  const args = ['--output-format=json', `--approval-mode=${approvalModes[input.access ?? 'workspaceWrite']}`];
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
    env: { [geminiSettingsVariable]: settingsFile },
    files: [{ path: settingsFile, content: `${JSON.stringify(settings, null, 2)}\n` }],
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
