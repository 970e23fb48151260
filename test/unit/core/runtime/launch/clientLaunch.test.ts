import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProcessError } from '../../../../../src/core/runtime/processErrors';
import type { ClientLaunchInput, McpServerLaunch } from '../../../../../src/core/runtime/launch/clientLaunch';
import { maxPromptArgBytes } from '../../../../../src/core/runtime/launch/clientLaunch';
import { buildLaunchPlan } from '../../../../../src/core/runtime/launch/clients';
import { tomlString } from '../../../../../src/core/runtime/launch/codexCli';
import { substitute } from '../../../../../src/core/runtime/launch/commandTemplate';

const ledger: McpServerLaunch = {
  name: 'agent-ledger',
  command: '/usr/bin/node',
  args: ['/opt/agent ledger/dist/cli.js', 'mcp', 'serve', '--workspace', '/w/it\'s "here"', '--enable-pm'],
  env: { AGENT_LEDGER_LOG: 'info' },
  forwardEnv: ['AGENT_LEDGER_PASSKEY'],
};

function input(extra: Partial<ClientLaunchInput> = {}): ClientLaunchInput {
  return {
    prompt: '-rf $(touch x) `id`\nagent_id: coder',
    cwd: '/w/tree',
    configDir: '/run/cfg',
    mcpServers: [ledger],
    ...extra,
  };
}

test('Claude Code: print mode, JSON output, only our MCP server, values bound to their flags, the prompt after --', () => {
  const plan = buildLaunchPlan(
    'claude',
    input({ model: 'sonnet', maxTurns: 30, appendSystemPrompt: 'Be brief.', allowedTools: ['Read'] }),
  );
  assert.equal(plan.program, 'claude');
  assert.equal(plan.cwd, '/w/tree');
  assert.deepEqual(plan.args, [
    '-p',
    '--output-format=json',
    '--mcp-config=/run/cfg/claude-mcp.json',
    '--strict-mcp-config',
    '--permission-mode=acceptEdits',
    '--allowedTools=mcp__agent-ledger,Read',
    '--append-system-prompt=Be brief.',
    '--model=sonnet',
    '--max-turns=30',
    '--',
    '-rf $(touch x) `id`\nagent_id: coder',
  ]);
  assert.deepEqual(plan.stdin, { kind: 'ignore' }, 'stdin at end of file: print mode would wait for it otherwise');
  assert.equal(plan.output, 'claude-json');
  assert.deepEqual(JSON.parse(plan.files[0].content), {
    mcpServers: {
      'agent-ledger': {
        command: ledger.command,
        args: ledger.args,
        env: { AGENT_LEDGER_LOG: 'info', AGENT_LEDGER_PASSKEY: '${AGENT_LEDGER_PASSKEY}' },
        type: 'stdio',
      },
    },
  });
  assert.deepEqual(buildLaunchPlan('claude', input({ access: 'fullAccess', mcpServers: [] })).args.slice(0, 4), [
    '-p',
    '--output-format=json',
    '--permission-mode=bypassPermissions',
    '--',
  ]);
});

test('Codex: exec --json, a sandbox instead of the removed --full-auto, -c overrides in TOML, secrets forwarded by name', () => {
  const plan = buildLaunchPlan('codex', input({ model: 'gpt-5-codex', appendSystemPrompt: 'Be brief.' }));
  assert.equal(plan.program, 'codex');
  assert.deepEqual(plan.args, [
    'exec',
    '--json',
    '--sandbox=workspace-write',
    '--cd=/w/tree',
    '--model=gpt-5-codex',
    '-c',
    'mcp_servers.agent-ledger.command="/usr/bin/node"',
    '-c',
    'mcp_servers.agent-ledger.args=["/opt/agent ledger/dist/cli.js", "mcp", "serve", "--workspace", "/w/it\'s \\"here\\"", "--enable-pm"]',
    '-c',
    'mcp_servers.agent-ledger.env={ AGENT_LEDGER_LOG = "info" }',
    '-c',
    'mcp_servers.agent-ledger.env_vars=["AGENT_LEDGER_PASSKEY"]',
    '--',
    'Be brief.\n\n-rf $(touch x) `id`\nagent_id: coder',
  ]);
  assert.deepEqual(plan.files, []);
  assert.equal(plan.output, 'codex-jsonl');
  assert.equal(buildLaunchPlan('codex', input({ access: 'readOnly' })).args[2], '--sandbox=read-only');
  assert.equal(
    buildLaunchPlan('codex', input({ access: 'fullAccess' })).args[2],
    '--dangerously-bypass-approvals-and-sandbox',
  );
  assert.equal(tomlString('a\\b"c\nd\u0001'), '"a\\\\b\\"c\\nd\\u0001"');
});

test('Gemini CLI: JSON output, its own system settings file by env (nothing written in the worktree), prompt bound to --prompt', () => {
  const plan = buildLaunchPlan('gemini', input({ model: 'gemini-2.5-pro', maxTurns: 12 }));
  assert.equal(plan.program, 'gemini');
  assert.deepEqual(plan.args, [
    '--output-format=json',
    '--approval-mode=auto_edit',
    '--allowed-mcp-server-names=agent-ledger',
    '--model=gemini-2.5-pro',
    '--prompt=-rf $(touch x) `id`\nagent_id: coder',
  ]);
  assert.deepEqual(plan.env, { GEMINI_CLI_SYSTEM_SETTINGS_PATH: '/run/cfg/gemini-settings.json' });
  assert.equal(plan.files[0].path, '/run/cfg/gemini-settings.json');
  assert.deepEqual(JSON.parse(plan.files[0].content), {
    mcpServers: {
      'agent-ledger': {
        command: ledger.command,
        args: ledger.args,
        env: { AGENT_LEDGER_LOG: 'info', AGENT_LEDGER_PASSKEY: '${AGENT_LEDGER_PASSKEY}' },
        trust: true,
      },
    },
    model: { maxSessionTurns: 12 },
  });
  assert.equal(buildLaunchPlan('gemini', input({ access: 'fullAccess' })).args[1], '--approval-mode=yolo');
});

test('a prompt too long for one argument goes through stdin, for every client', () => {
  const prompt = `agent_id: coder\n${'x'.repeat(maxPromptArgBytes + 1)}`;
  const claude = buildLaunchPlan('claude', input({ prompt }));
  assert.equal(claude.args.at(-1), '--allowedTools=mcp__agent-ledger');
  assert.deepEqual(claude.stdin, { kind: 'text', text: prompt });
  const codex = buildLaunchPlan('codex', input({ prompt }));
  assert.deepEqual(codex.args.slice(-2), ['--', '-']);
  assert.deepEqual(codex.stdin, { kind: 'text', text: prompt });
  const gemini = buildLaunchPlan('gemini', input({ prompt }));
  assert.ok(!gemini.args.some((a) => a.startsWith('--prompt')));
  assert.deepEqual(gemini.stdin, { kind: 'text', text: prompt });
});

test('command template: placeholders substituted inside each argument, never through a shell; unknown ones refused', () => {
  const plan = buildLaunchPlan(
    {
      program: 'aider',
      args: ['--message={prompt}', '--mcp', '{mcp_config}', '--dir={cwd}', '{{literal}}'],
      output: 'text',
    },
    input({ prompt: 'do $(rm -rf /) now' }),
  );
  assert.deepEqual(plan.args, [
    '--message=do $(rm -rf /) now',
    '--mcp',
    '/run/cfg/mcp.json',
    '--dir=/w/tree',
    '{literal}',
  ]);
  assert.equal(plan.files[0].path, '/run/cfg/mcp.json');
  assert.ok(JSON.parse(plan.files[0].content).mcpServers['agent-ledger']);
  assert.equal(plan.output, 'text');
  assert.deepEqual(
    buildLaunchPlan({ program: 'tool', args: ['run'], promptOnStdin: true }, input({ prompt: 'p' })).stdin,
    { kind: 'text', text: 'p' },
  );
  assert.throws(
    () => substitute('--x={promt}', { prompt: '', mcp_config: '', cwd: '', model: '' }),
    (ex) => ProcessError.is(ex, 'invalidLaunch'),
  );
  assert.throws(
    () => buildLaunchPlan({ program: '{prompt}', args: [] }, input()),
    (ex) => ProcessError.is(ex, 'invalidLaunch'),
  );
  assert.throws(
    () => buildLaunchPlan('claude', input({ mcpServers: [{ ...ledger, name: 'bad name' }] })),
    (ex) => ProcessError.is(ex, 'invalidLaunch'),
  );
  assert.throws(
    () => buildLaunchPlan('codex', input({ mcpServers: [{ ...ledger, forwardEnv: ['A=B'] }] })),
    (ex) => ProcessError.is(ex, 'invalidLaunch'),
  );
});

test('an HTTP ledger server: each client gets its URL and a reference to the token variable, never the token', () => {
  const team: McpServerLaunch = {
    name: 'agent-ledger',
    command: '',
    args: [],
    http: { url: 'https://ledger.example.com/mcp', tokenEnv: 'AGENT_LEDGER_TOKEN' },
  };
  const claude = buildLaunchPlan('claude', input({ mcpServers: [team] }));
  assert.deepEqual(JSON.parse(claude.files[0].content).mcpServers['agent-ledger'], {
    type: 'http',
    url: 'https://ledger.example.com/mcp',
    headers: { Authorization: 'Bearer ${AGENT_LEDGER_TOKEN}' },
  });
  const gemini = buildLaunchPlan('gemini', input({ mcpServers: [team] }));
  assert.deepEqual(JSON.parse(gemini.files[0].content).mcpServers['agent-ledger'], {
    httpUrl: 'https://ledger.example.com/mcp',
    headers: { Authorization: 'Bearer ${AGENT_LEDGER_TOKEN}' },
    trust: true,
  });
  const codex = buildLaunchPlan('codex', input({ mcpServers: [team] }));
  assert.deepEqual(
    codex.args.filter((_a, i) => codex.args[i - 1] === '-c'),
    [
      'mcp_servers.agent-ledger.url="https://ledger.example.com/mcp"',
      'mcp_servers.agent-ledger.bearer_token_env_var="AGENT_LEDGER_TOKEN"',
    ],
  );
  // A URL that could break out of a configuration value or a command line is refused.
  for (const url of ['https://x.example/"; rm -rf /', 'ftp://x.example/mcp', 'https://x.example/${HOME}'])
    assert.throws(
      () => buildLaunchPlan('claude', input({ mcpServers: [{ ...team, http: { url, tokenEnv: 'T' } }] })),
      (e: unknown) => e instanceof ProcessError,
      url,
    );
});
