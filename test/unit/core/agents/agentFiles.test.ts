import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentYaml, defaultAgents, parseAgentFile } from '../../../../src/core/agents/agentFiles';

test('seed 002’s YAML format parses into a definition and prints back the same', () => {
  const text = [
    'name: coder',
    'description: コード実装担当',
    'client: claude-code',
    'model: sonnet',
    'scope:',
    '  read:',
    '    - "**/*"',
    '  write:',
    '    - "src/**"',
    '    - "tests/**"',
    '  exclude:',
    '    - "**/*.env"',
    'config:',
    '  temperature: 0.3',
    'promptContent: |',
    '  # コード実装担当',
    '  役割と制約をここに記述',
    '',
  ].join('\n');
  const agent = parseAgentFile(text, '.agent-ledger/agents/coder.yaml');
  assert.deepEqual(agent, {
    name: 'coder',
    description: 'コード実装担当',
    client: 'claude-code',
    model: 'sonnet',
    scope: { read: ['**/*'], write: ['src/**', 'tests/**'], exclude: ['**/*.env'] },
    // No permissions: block: edit, test and commit in its worktree (the default).
    permissions: { level: 'commit', commands: [], never: [] },
    config: { temperature: 0.3 },
    promptContent: '# コード実装担当\n役割と制約をここに記述\n',
    file: '.agent-ledger/agents/coder.yaml',
  });
  assert.deepEqual(parseAgentFile(agentYaml(agent), agent.file), agent);
});

test('a Markdown agent: front matter fields, the body is the prompt, the file name the default name', () => {
  const agent = parseAgentFile(
    '---\nclient: codex\nscope:\n  write: []\n---\n# Reviewer\nRead only.\n',
    '.agent-ledger/agents/reviewer.md',
  );
  assert.equal(agent.name, 'reviewer');
  assert.equal(agent.client, 'codex');
  assert.deepEqual(agent.scope, { read: ['**/*'], write: [], exclude: [] });
  assert.equal(agent.promptContent, '# Reviewer\nRead only.\n');
});

test('the defaults round-trip through their file format', () => {
  for (const d of defaultAgents) {
    const file = `.agent-ledger/agents/${d.name}.yaml`;
    assert.deepEqual(parseAgentFile(agentYaml({ ...d, file }, Infinity), file), { ...d, file });
  }
});

test('broken definitions say what is wrong', () => {
  const f = '.agent-ledger/agents/x.yaml';
  assert.throws(() => parseAgentFile('client: cursor\n', f), /"client" must be one of claude-code, codex, gemini-cli/);
  assert.throws(() => parseAgentFile('scope: everything\n', f), /"scope" must be a mapping/);
  assert.throws(() => parseAgentFile('scope:\n  write: ["../outside/**"]\n', f), /without "\.\."/);
  assert.throws(() => parseAgentFile('scope:\n  read: ["/etc/**"]\n', f), /relative to the repository/);
  assert.throws(() => parseAgentFile('name: "a\\nb"\n', f), /one line/);
  assert.throws(() => parseAgentFile('- a\n- b\n', f), /YAML mapping/);
  assert.throws(() => parseAgentFile('name: [unclosed\n', f));
});

test('agent://{name} shortens a long prompt and says where the rest is', () => {
  const agent = parseAgentFile(`promptContent: "${'x'.repeat(5000)}"\n`, '.agent-ledger/agents/long.yaml');
  const yaml = agentYaml(agent);
  assert.match(yaml, /… \(1000 more characters in \.agent-ledger\/agents\/long\.yaml\)/);
});

test('permissions: a level, commands added and forbidden; the reviewer (no write scope) reads only', () => {
  const f = '.agent-ledger/agents/x.yaml';
  const agent = parseAgentFile(
    'permissions:\n  level: test\n  commands: [npm run e2e, "make   check"]\n  never: [npm publish]\n',
    f,
  );
  assert.deepEqual(agent.permissions, {
    level: 'test',
    commands: ['npm run e2e', 'make check'],
    never: ['npm publish'],
  });
  assert.deepEqual(parseAgentFile(agentYaml(agent), f).permissions, agent.permissions, 'written back as read');
  assert.equal(parseAgentFile('permissions: edit\n', f).permissions.level, 'edit');
  assert.equal(parseAgentFile('scope:\n  write: []\n', f).permissions.level, 'read');
  assert.match(
    agentYaml(parseAgentFile('name: x\n', f)),
    /\npermissions:\n  level: commit\n/,
    'written out, default too',
  );
});

test('a launch: block at the top level of a definition is read (it was documented there)', () => {
  const agent = parseAgentFile('launch:\n  max_turns: 7\n', '.agent-ledger/agents/x.yaml');
  assert.deepEqual(agent.launch, { max_turns: 7 });
  assert.throws(
    () => parseAgentFile('launch: {}\nconfig:\n  launch: {}\n', '.agent-ledger/agents/x.yaml'),
    /"launch" is given both at the top level and under "config"/,
  );
});

test('bad permissions say what is wrong, naming the field', () => {
  const f = '.agent-ledger/agents/x.yaml';
  assert.throws(() => parseAgentFile('permissions: admin\n', f), /"permissions.level" must be one of read, edit/);
  assert.throws(() => parseAgentFile('permissions:\n  levels: edit\n', f), /unknown field\(s\) levels/);
  assert.throws(
    () => parseAgentFile('permissions:\n  commands: ["npm test; rm -rf /"]\n', f),
    /"permissions.commands": "npm test; rm -rf \/" is not a command prefix/,
  );
  assert.throws(
    () => parseAgentFile('permissions:\n  level: edit\n  commands: [npm test]\n', f),
    /needs level test or above/,
  );
  assert.throws(() => parseAgentFile('permissions:\n  never: "a,b"\n', f), /not a command prefix/);
});
