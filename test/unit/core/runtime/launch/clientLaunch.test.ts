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
  // Never bypassPermissions (refused as root, as CI runs): `full` allows every command instead.
  assert.deepEqual(buildLaunchPlan('claude', input({ access: 'fullAccess', mcpServers: [] })).args.slice(0, 5), [
    '-p',
    '--output-format=json',
    '--permission-mode=acceptEdits',
    '--allowedTools=Bash',
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
    '--skip-git-repo-check',
    '--model=gpt-5-codex',
    '-c',
    'mcp_servers.agent-ledger.command="/usr/bin/node"',
    '-c',
    'mcp_servers.agent-ledger.args=["/opt/agent ledger/dist/cli.js", "mcp", "serve", "--workspace", "/w/it\'s \\"here\\"", "--enable-pm"]',
    '-c',
    'mcp_servers.agent-ledger.env={ AGENT_LEDGER_LOG = "info" }',
    '-c',
    'mcp_servers.agent-ledger.env_vars=["AGENT_LEDGER_PASSKEY"]',
    // Codex waits for the server before its first turn, and lets the agent use every tool of it.
    '-c',
    'mcp_servers.agent-ledger.required=true',
    '-c',
    'mcp_servers.agent-ledger.default_tools_approval_mode="approve"',
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

test('Gemini CLI: JSON output, trust skipped, its own home with the user settings and ours laid over, prompt bound to --prompt', () => {
  const plan = buildLaunchPlan(
    'gemini',
    input({ model: 'gemini-2.5-pro', maxTurns: 12, env: { HOME: '/home/ann', GEMINI_API_KEY: 'k' } }),
  );
  assert.equal(plan.program, 'gemini');
  assert.deepEqual(plan.args, [
    '--output-format=json',
    '--approval-mode=auto_edit',
    '--skip-trust',
    '--allowed-mcp-server-names=agent-ledger',
    '--model=gemini-2.5-pro',
    '--prompt=-rf $(touch x) `id`\nagent_id: coder',
  ]);
  // Not GEMINI_CLI_SYSTEM_SETTINGS_PATH: a system settings file must be root's, in folders only root writes.
  assert.deepEqual(plan.env, { GEMINI_CLI_HOME: '/run/cfg/gemini-home' });
  assert.deepEqual(plan.homes, [{ path: '/run/cfg/gemini-home/.gemini', source: '/home/ann/.gemini' }]);
  const settings = plan.files[0];
  assert.equal(settings.path, '/run/cfg/gemini-home/.gemini/settings.json');
  assert.equal(settings.mergeJsonFrom, '/home/ann/.gemini/settings.json');
  assert.deepEqual(settings.jsonDefaults, { security: { auth: { selectedType: 'gemini-api-key' } } });
  assert.deepEqual(JSON.parse(settings.content), {
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
  const noKey = buildLaunchPlan('gemini', input({ env: { GEMINI_CLI_HOME: '/srv/g' } }));
  assert.equal(noKey.files[0].jsonDefaults, undefined, 'no key: the user’s own auth type (a Google login) stands');
  assert.equal(noKey.files[0].mergeJsonFrom, '/srv/g/.gemini/settings.json');
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

test('permissions: one set of them, in each client’s own terms', () => {
  const permissions = {
    level: 'commit' as const,
    commands: ['npm test', 'git add', 'git commit'],
    never: ['git push', 'npm publish'],
    gitDirs: ['/repo/.git', '/repo/.git/worktrees/task-1'],
  };
  const claude = buildLaunchPlan('claude', input({ permissions })).args;
  assert.ok(claude.includes('--permission-mode=acceptEdits'));
  assert.ok(
    claude.includes('--allowedTools=mcp__agent-ledger,Bash(npm test:*),Bash(git add:*),Bash(git commit:*)'),
    claude.join(' '),
  );
  assert.ok(claude.includes('--disallowedTools=Bash(git push:*),Bash(npm publish:*)'));

  const codex = buildLaunchPlan('codex', input({ permissions, env: { HOME: '/home/ann' } }));
  assert.ok(codex.args.includes('--sandbox=workspace-write'));
  // workspace-write keeps Git's folders read-only: a commit needs both writable.
  assert.ok(
    codex.args.includes('sandbox_workspace_write.writable_roots=["/repo/.git", "/repo/.git/worktrees/task-1"]'),
    codex.args.join(' '),
  );
  assert.deepEqual(codex.env, { CODEX_HOME: '/run/cfg/codex-home' });
  assert.deepEqual(codex.homes, [{ path: '/run/cfg/codex-home', source: '/home/ann/.codex' }]);
  assert.equal(codex.files[0].path, '/run/cfg/codex-home/rules/agent-ledger.rules');
  assert.match(codex.files[0].content, /^prefix_rule\(pattern = \["git", "push"\], decision = "forbidden"/);
  assert.match(codex.files[0].content, /\nprefix_rule\(pattern = \["npm", "publish"\], decision = "forbidden"/);
  const edit = buildLaunchPlan('codex', input({ permissions: { ...permissions, level: 'edit', commands: [] } }));
  assert.ok(!edit.args.some((a) => a.includes('writable_roots')), 'no commit: Git stays read-only');

  const gemini = buildLaunchPlan('gemini', input({ permissions }));
  assert.ok(gemini.args.includes('--approval-mode=auto_edit'));
  const policyArg = gemini.args.find((a) => a.startsWith('--policy='));
  assert.equal(policyArg, '--policy=/run/cfg/gemini-policy.toml');
  const policy = gemini.files.find((f) => f.path === '/run/cfg/gemini-policy.toml')!.content;
  assert.match(policy, /commandPrefix = \["npm test", "git add", "git commit"\]\ndecision = "allow"\npriority = 100/);
  assert.match(policy, /commandPrefix = \["git push", "npm publish"\]\ndecision = "deny"\npriority = 200/);

  const read = { level: 'read' as const, commands: [], never: ['git push'] };
  assert.ok(buildLaunchPlan('claude', input({ permissions: read })).args.includes('--permission-mode=default'));
  assert.ok(buildLaunchPlan('codex', input({ permissions: read })).args.includes('--sandbox=read-only'));
  assert.ok(buildLaunchPlan('gemini', input({ permissions: read })).args.includes('--approval-mode=default'));
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
