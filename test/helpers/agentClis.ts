/**
 * The real agent CLIs in tests (installed by scripts/agentClis.mjs into .agent-clis/): where each
 * is, a private home that points it at a scripted model endpoint (test/helpers/scriptedModel)
 * with nothing reaching the network or the real home, and a non-interactive launch wired to MCP
 * servers with the permissions a test asks for. docs/agent-clients.md says why each flag is there.
 *
 *   test('…', { skip: skipUnlessInstalled('codex') }, async () => {
 *     const model = await startScriptedModel([…]);
 *     const run = await runAgentCli('codex', { cwd: repo, prompt: 'Do it', modelUrl: model.url, mcpServers: [ledgerServer(repo)] });
 *   });
 */
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
// @ts-expect-error: an ES module script imported from CommonJS (tsx loads it); its types are in agentClis.d.mts
import { agentCliStatus, agentClis } from '../../scripts/agentClis.mjs';
import { cliPath } from './mcpClient';
import { ledgerEnv } from './testLedger';
import { tempDir } from './tmp';

export type AgentCliName = 'claude' | 'codex' | 'gemini';
export const agentCliNames: readonly AgentCliName[] = ['claude', 'codex', 'gemini'];

export interface InstalledCli {
  name: AgentCliName;
  package: string;
  version: string;
  /** The program to run (`.agent-clis/bin/<name>`). */
  bin: string;
  /** `.agent-clis/bin`: put it first on PATH to run the client by its usual name. */
  binDir: string;
}

/** The installed client at its pinned version, or null. */
export function installedCli(name: AgentCliName): InstalledCli | null {
  const status = agentCliStatus(name);
  if (!status.ok || !fs.existsSync(status.bin)) return null;
  return { name, package: status.package, version: status.version, bin: status.bin, binDir: path.dirname(status.bin) };
}

function requireCli(name: AgentCliName): InstalledCli {
  const cli = installedCli(name);
  if (!cli)
    throw new Error(inCi() ? `${notInstalled(name)} — CI must have it (.ci/run installs it)` : notInstalled(name));
  return cli;
}

function notInstalled(name: AgentCliName): string {
  const pin = agentClis[name];
  return `${name} (${pin.package}@${pin.version}) is not installed: run \`node scripts/agentClis.mjs\``;
}

function inCi(): boolean {
  return process.env.CI === 'true' || process.env.CI === '1';
}

/**
 * node:test's `skip` for a test that runs `name`: the reason when it is not installed. In CI
 * (`CI=true`) a missing client is a failure, not a skip (.ci/run installs them all): the test runs,
 * and its launch fails saying what is missing.
 */
export function skipUnlessInstalled(name: AgentCliName): string | false {
  if (installedCli(name) || inCi()) return false;
  return notInstalled(name);
}

/** An MCP server for the client to start (stdio). */
export interface McpServerSpec {
  /** Letters, digits, `-`, `_` (Claude Code's tools become `mcp__<name>__<tool>`, Codex's namespace `mcp__<name with _>`). */
  name: string;
  command: string;
  args: readonly string[];
  env?: Readonly<Record<string, string>>;
}

/** Our ledger's MCP server for `workspace`, as the runner wires it: `node dist/cli.js mcp serve --workspace <dir>`. */
export function ledgerServer(
  workspace: string,
  extraArgs: readonly string[] = [],
  name = 'agent-ledger',
): McpServerSpec {
  // On `AGENT_LEDGER_TEST_DB=postgres`, the workspace's own database (the variables a server needs).
  const env = Object.fromEntries(
    Object.entries(ledgerEnv(workspace, {})).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  return {
    name,
    command: process.execPath,
    args: [cliPath, 'mcp', 'serve', '--workspace', workspace, ...extraArgs],
    env,
  };
}

/** What the agent may do without asking (nobody is there to answer in a non-interactive run). */
export interface AgentPermissions {
  /** Edit and create files in its working folder (default true). */
  edit?: boolean;
  /**
   * Commands it may run with its shell tool, as prefixes (`git status`, `git commit`), or `any`.
   * Default: none. Codex runs every command inside its sandbox whatever this says (workspace-write).
   */
  commands?: readonly string[] | 'any';
  /** Commands it is refused even when `commands` would allow them. */
  deniedCommands?: readonly string[];
}

export interface AgentCliHome {
  /** HOME (and the client's own config folder inside it): nothing of the real home is read or written. */
  home: string;
  /** The environment to run the client with (PATH, HOME, the endpoint, placeholders for keys, no telemetry or updates). */
  env: Record<string, string>;
}

/** The placeholder key each client is given: the scripted endpoint accepts anything. */
export const scriptedApiKey = 'scripted-model-key';

/** Codex's model provider for the scripted endpoint (config.toml). */
function codexConfig(modelUrl: string): string {
  return [
    '# The scripted model endpoint of the tests (test/helpers/agentClis.ts).',
    'model_provider = "scripted"',
    // A model Codex knows (its metadata gives the tools: exec_command, apply_patch, tool_search).
    'model = "gpt-5.5"',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.scripted]',
    'name = "scripted"',
    `base_url = "${modelUrl}/v1"`,
    'env_key = "SCRIPTED_MODEL_API_KEY"',
    'wire_api = "responses"',
    // The endpoint answers at once; a retry would only hide a bug.
    'request_max_retries = 0',
    'stream_max_retries = 0',
    'stream_idle_timeout_ms = 30000',
    '',
    '[analytics]',
    'enabled = false',
    '',
  ].join('\n');
}

/** Gemini CLI's user settings: API-key auth (the base URL alone selects a "gateway" it refuses), nothing sent home. */
function geminiSettings(): Record<string, unknown> {
  return {
    security: { auth: { selectedType: 'gemini-api-key' } },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
  };
}

/**
 * A private home for `name` pointed at the scripted endpoint `modelUrl`. The client's own
 * configuration (Codex's config.toml, Gemini CLI's settings.json) is written in it, so a launch
 * made by the product (the runner) reaches the endpoint too when given this `env`.
 */
export function agentCliHome(name: AgentCliName, modelUrl: string, options: { home?: string } = {}): AgentCliHome {
  const cli = installedCli(name);
  const home = options.home ?? tempDir(`agent-ledger-${name}-home-`);
  fs.mkdirSync(path.join(home, 'tmp'), { recursive: true });
  const env: Record<string, string> = {
    PATH: [cli?.binDir, path.dirname(process.execPath), process.env.PATH].filter(Boolean).join(path.delimiter),
    HOME: home,
    USER: process.env.USER ?? 'test',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    // The clients' own temporary files (sockets, sandbox mount points) go with the home.
    TMPDIR: path.join(home, 'tmp'),
    // Git inside the agent's shell: a fixed identity, no global or system configuration of this machine.
    GIT_CONFIG_GLOBAL: path.join(home, '.gitconfig'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Agent',
    GIT_AUTHOR_EMAIL: 'agent@example.com',
    GIT_COMMITTER_NAME: 'Agent',
    GIT_COMMITTER_EMAIL: 'agent@example.com',
  };
  if (name === 'claude') {
    Object.assign(env, {
      CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
      ANTHROPIC_BASE_URL: modelUrl,
      ANTHROPIC_API_KEY: scriptedApiKey,
      // No update checks, telemetry, error reports, feature flags or other non-model traffic.
      DISABLE_AUTOUPDATER: '1',
      DISABLE_UPDATES: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      // The endpoint answers at once: fail fast rather than retry for a minute.
      CLAUDE_CODE_MAX_RETRIES: '0',
      API_TIMEOUT_MS: '30000',
    });
    fs.mkdirSync(env.CLAUDE_CONFIG_DIR, { recursive: true });
  } else if (name === 'codex') {
    const codexHome = path.join(home, '.codex');
    fs.mkdirSync(codexHome, { recursive: true });
    fs.writeFileSync(path.join(codexHome, 'config.toml'), codexConfig(modelUrl));
    Object.assign(env, { CODEX_HOME: codexHome, SCRIPTED_MODEL_API_KEY: scriptedApiKey });
  } else {
    const geminiDir = path.join(home, '.gemini');
    fs.mkdirSync(geminiDir, { recursive: true });
    fs.writeFileSync(path.join(geminiDir, 'settings.json'), `${JSON.stringify(geminiSettings(), null, 2)}\n`);
    Object.assign(env, {
      GEMINI_CLI_HOME: home,
      GEMINI_API_KEY: scriptedApiKey,
      GOOGLE_GEMINI_BASE_URL: modelUrl,
      GEMINI_TELEMETRY_ENABLED: 'false',
    });
  }
  return { home, env };
}

/** A TOML basic string. */
function toml(value: string): string {
  return JSON.stringify(value);
}

export interface AgentCliLaunch {
  name: AgentCliName;
  program: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  home: string;
}

export interface AgentCliRunOptions {
  /** The agent's working folder (a Git repository). */
  cwd: string;
  prompt: string;
  /** The scripted endpoint (`model.url`). */
  modelUrl: string;
  mcpServers?: readonly McpServerSpec[];
  permissions?: AgentPermissions;
  /** A home made earlier with agentCliHome (one is made otherwise). */
  home?: AgentCliHome;
  extraArgs?: readonly string[];
}

function claudeArgs(options: AgentCliRunOptions, home: string): string[] {
  const servers = options.mcpServers ?? [];
  const permissions = options.permissions ?? {};
  const args = ['-p', '--output-format=json'];
  if (servers.length > 0) {
    const file = path.join(home, 'mcp.json');
    const mcpServers = Object.fromEntries(
      servers.map((s) => [s.name, { type: 'stdio', command: s.command, args: [...s.args], env: { ...s.env } }]),
    );
    fs.writeFileSync(file, `${JSON.stringify({ mcpServers }, null, 2)}\n`);
    args.push(`--mcp-config=${file}`, '--strict-mcp-config');
  }
  args.push(`--permission-mode=${permissions.edit === false ? 'default' : 'acceptEdits'}`);
  const commands = permissions.commands ?? [];
  const allowed = [
    ...servers.map((s) => `mcp__${s.name}`),
    ...(commands === 'any' ? ['Bash'] : commands.map((c) => `Bash(${c}:*)`)),
  ];
  if (allowed.length > 0) args.push(`--allowedTools=${allowed.join(',')}`);
  if (permissions.deniedCommands?.length)
    args.push(`--disallowedTools=${permissions.deniedCommands.map((c) => `Bash(${c}:*)`).join(',')}`);
  return [...args, ...(options.extraArgs ?? []), '--', options.prompt];
}

/** Whether the allowed commands write to Git (anything but reading it). */
function writesGit(commands: readonly string[] | 'any'): boolean {
  if (commands === 'any') return true;
  return commands.some((c) => /^git\s/.test(c) && !/^git\s+(status|diff|log|show|rev-parse|branch --list)\b/.test(c));
}

function codexArgs(options: AgentCliRunOptions, home: string): string[] {
  const permissions = options.permissions ?? {};
  const args = [
    'exec',
    '--json',
    `--sandbox=${permissions.edit === false ? 'read-only' : 'workspace-write'}`,
    `--cd=${options.cwd}`,
    '--skip-git-repo-check',
  ];
  for (const server of options.mcpServers ?? []) {
    const key = `mcp_servers.${server.name}`;
    args.push(
      '-c',
      `${key}.command=${toml(server.command)}`,
      '-c',
      `${key}.args=[${server.args.map(toml).join(', ')}]`,
    );
    const env = Object.entries(server.env ?? {});
    if (env.length > 0) args.push('-c', `${key}.env={ ${env.map(([k, v]) => `${k} = ${toml(v)}`).join(', ')} }`);
    // Without it, `codex exec` starts its first turn before a slow server is up and the model has no tools from it.
    args.push('-c', `${key}.required=true`);
    // `auto` (the default) refuses, under `codex exec`, every tool annotated destructive or
    // open-world ("MCP tool call requires approval, but approval policy is never").
    args.push('-c', `${key}.default_tools_approval_mode="approve"`);
  }
  // workspace-write keeps Git's folders read-only: a commit needs them as writable roots, both the
  // repository's (objects, refs) and, in a worktree, the worktree's own (its index and HEAD).
  if (permissions.edit !== false && writesGit(permissions.commands ?? [])) {
    const dirs = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir', '--git-dir'], {
      cwd: options.cwd,
      encoding: 'utf8',
    })
      .trim()
      .split('\n');
    args.push('-c', `sandbox_workspace_write.writable_roots=[${[...new Set(dirs)].map(toml).join(', ')}]`);
  }
  if (permissions.deniedCommands?.length) {
    const rules = path.join(home, '.codex', 'rules');
    fs.mkdirSync(rules, { recursive: true });
    const text = permissions.deniedCommands
      .map((c) => `prefix_rule(pattern = ${JSON.stringify(c.split(/\s+/))}, decision = "forbidden")\n`)
      .join('');
    fs.writeFileSync(path.join(rules, 'tests.rules'), text);
  }
  return [...args, ...(options.extraArgs ?? []), '--', options.prompt];
}

function geminiArgs(options: AgentCliRunOptions, home: string): string[] {
  const servers = options.mcpServers ?? [];
  const permissions = options.permissions ?? {};
  // MCP servers go in the user settings of the private home: the system settings file
  // (GEMINI_CLI_SYSTEM_SETTINGS_PATH) is skipped when a parent folder is group- or world-writable, as /tmp is.
  const settingsFile = path.join(home, '.gemini', 'settings.json');
  const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
  settings.mcpServers = Object.fromEntries(
    servers.map((s) => [s.name, { command: s.command, args: [...s.args], env: { ...s.env }, trust: true }]),
  );
  fs.writeFileSync(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);
  const rules: string[] = [];
  const commands = permissions.commands ?? [];
  if (commands === 'any') rules.push('[[rule]]\ntoolName = "run_shell_command"\ndecision = "allow"\npriority = 100\n');
  else if (commands.length > 0)
    rules.push(
      `[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = [${commands.map(toml).join(', ')}]\ndecision = "allow"\npriority = 100\n`,
    );
  if (permissions.deniedCommands?.length)
    rules.push(
      `[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = [${permissions.deniedCommands.map(toml).join(', ')}]\ndecision = "deny"\npriority = 200\n`,
    );
  const args = [
    '--output-format=json',
    `--approval-mode=${permissions.edit === false ? 'default' : 'auto_edit'}`,
    '--skip-trust',
  ];
  if (rules.length > 0) {
    const policy = path.join(home, 'policy.toml');
    fs.writeFileSync(policy, rules.join('\n'));
    args.push(`--policy=${policy}`);
  }
  if (servers.length > 0) args.push(`--allowed-mcp-server-names=${servers.map((s) => s.name).join(',')}`);
  return [...args, ...(options.extraArgs ?? []), `--prompt=${options.prompt}`];
}

/** The launch of `name` in non-interactive mode, its configuration files written. */
export function agentCliLaunch(name: AgentCliName, options: AgentCliRunOptions): AgentCliLaunch {
  const cli = requireCli(name);
  const home = options.home ?? agentCliHome(name, options.modelUrl);
  const build = { claude: claudeArgs, codex: codexArgs, gemini: geminiArgs }[name];
  return {
    name,
    program: cli.bin,
    args: build(options, home.home),
    cwd: options.cwd,
    env: { ...home.env },
    home: home.home,
  };
}

export interface AgentCliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  /** Whether it was killed at the time limit. */
  timedOut: boolean;
}

/**
 * Runs a launch to its end (stdin closed at once, as a runner does). Asynchronous on purpose: the
 * scripted endpoint lives in the test's process and must keep answering while the client runs.
 */
export function runLaunch(launch: AgentCliLaunch, timeoutMs = 60_000): Promise<AgentCliResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(launch.program, launch.args, {
      cwd: launch.cwd,
      env: launch.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // The whole process group: a client's MCP servers and shells go with it.
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, durationMs: Date.now() - started, timedOut });
    });
  });
}

/** agentCliLaunch + runLaunch. */
export function runAgentCli(
  name: AgentCliName,
  options: AgentCliRunOptions & { timeoutMs?: number },
): Promise<AgentCliResult & { launch: AgentCliLaunch }> {
  const launch = agentCliLaunch(name, options);
  return runLaunch(launch, options.timeoutMs).then((result) => ({ ...result, launch }));
}
