import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAgentFile } from '../../../../../src/core/agents/agentFiles';
import { launchProfileOf } from '../../../../../src/core/runtime/runner/launchProfile';

/** The `launch:` block of the README, taken from the README itself, so the two cannot drift apart. */
function readmeLaunchBlock(): string {
  const readme = fs.readFileSync(path.join(__dirname, '../../../../../README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
  const block = blocks.find((b) => b.startsWith('launch:\n'));
  assert.ok(block, 'the README shows a launch: block');
  return block;
}

test('the launch: block written at the top level of an agent file, as the README shows it, is what the runner uses', () => {
  for (const [file, text] of [
    ['.agent-ledger/agents/mine.yaml', `name: mine\nclient: claude-code\n${readmeLaunchBlock()}`],
    ['.agent-ledger/agents/mine.md', `---\nname: mine\n${readmeLaunchBlock()}---\nYou write code.\n`],
  ]) {
    const profile = launchProfileOf(parseAgentFile(text, file));
    assert.deepEqual(
      profile.client,
      {
        program: 'my-agent',
        args: ['--mcp-config', '{mcp_config}', '--', '{prompt}'],
        output: 'text',
        promptOnStdin: undefined,
      },
      `${file}: the command of the block`,
    );
    assert.equal(profile.maxTurns, 40);
    assert.equal(profile.accessLevel, undefined, 'the README block sets no level: the permissions block does');
    assert.deepEqual(profile.limits, {
      wallClockMs: 60 * 60_000,
      idleMs: 15 * 60_000,
      maxOutputBytes: 64 * 1024 * 1024,
    });
  }
});

test('a launch: block under config: is still read; the same block in both places is refused', () => {
  const nested = parseAgentFile(
    'name: old\nconfig:\n  launch:\n    wall_clock_minutes: 5\n',
    '.agent-ledger/agents/old.yaml',
  );
  assert.equal(launchProfileOf(nested).limits.wallClockMs, 5 * 60_000);
  assert.throws(
    () =>
      parseAgentFile(
        'name: both\nlaunch:\n  wall_clock_minutes: 5\nconfig:\n  launch:\n    wall_clock_minutes: 9\n',
        '.agent-ledger/agents/both.yaml',
      ),
    /launch.*both.*config/i,
  );
});

test('unknown keys in an agent file are refused with the key named and the keys an agent file takes', () => {
  const f = '.agent-ledger/agents/x.yaml';
  assert.throws(
    () => parseAgentFile('name: x\nlaunh:\n  wall_clock_minutes: 1\n', f),
    (err: Error) => {
      assert.match(err.message, /unknown key "launh"/);
      assert.match(err.message, /name, description, client, model, scope, permissions, config, launch, promptContent/);
      return true;
    },
  );
  assert.throws(
    () => parseAgentFile('---\nname: x\ntools: [Bash]\n---\nbody\n', '.agent-ledger/agents/x.md'),
    /unknown key "tools"/,
  );
  assert.throws(() => parseAgentFile('scope:\n  writes: ["src/**"]\n', f), /unknown key "scope.writes"/);
  assert.throws(() => parseAgentFile('launch:\n  wall_clock_minute: 1\n', f), /launch\.wall_clock_minute/);
  assert.throws(() => parseAgentFile('launch: fast\n', f), /"launch" must be a mapping/);
});
