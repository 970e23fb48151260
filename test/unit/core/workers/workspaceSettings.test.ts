// .agent-ledger/workspace.yaml: the project's commands, a new worktree's setup and links, the
// worktrees' disk budget; package.json's scripts when it says nothing; bad files refused by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LedgerError } from '../../../../src/core/errors';
import { readWorkspaceSettings } from '../../../../src/core/workers/workspaceSettings';
import { tempDir } from '../../../helpers/tmp';

function workspace(files: Record<string, string>): string {
  const dir = tempDir('agent-ledger-settings-');
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

test('no file: the test and build scripts package.json declares, nothing else', () => {
  const dir = workspace({
    'package.json': JSON.stringify({ scripts: { test: 'node --test', build: 'tsc', start: 'node .' } }),
  });
  assert.deepEqual(readWorkspaceSettings(dir), {
    commands: ['npm test', 'npm run build'],
    commandsFrom: 'package.json',
    setup: [],
    link: [],
    worktreeBudgetBytes: null,
  });
  assert.equal(readWorkspaceSettings(workspace({})).commandsFrom, 'none');
});

test('the file says everything: its commands win over package.json', () => {
  const dir = workspace({
    'package.json': JSON.stringify({ scripts: { test: 'x' } }),
    '.agent-ledger/workspace.yaml': [
      'commands: [make test, "cargo   build"]',
      'setup: npm ci',
      'link: [node_modules, ./vendor/]',
      'worktrees:',
      '  budget: 1.5GB',
    ].join('\n'),
  });
  assert.deepEqual(readWorkspaceSettings(dir), {
    commands: ['make test', 'cargo build'],
    commandsFrom: 'workspace.yaml',
    setup: ['npm ci'],
    link: ['node_modules', 'vendor'],
    worktreeBudgetBytes: Math.round(1.5 * 1024 ** 3),
  });
});

test('a file that cannot be used is a ConfigError naming it and the field', () => {
  const cases: Array<[string, RegExp]> = [
    ['commands: ["npm test && rm -rf /"]', /commands: "npm test && rm -rf \/" is not a command prefix/],
    ['link: [../outside]', /link: "\.\.\/outside" must be a folder of the repository/],
    ['worktrees:\n  budget: lots', /worktrees.budget: must be a size such as 5GB/],
    ['setup: 3', /setup: must be a text or a list of texts/],
    ['colour: blue', /unknown field\(s\) colour/],
    ['- a', /must be a YAML mapping/],
    ['commands: [unclosed', /not valid YAML/],
  ];
  for (const [text, message] of cases) {
    const dir = workspace({ '.agent-ledger/workspace.yaml': text });
    assert.throws(
      () => readWorkspaceSettings(dir),
      (err: unknown) =>
        LedgerError.is(err, 'ConfigError') &&
        err.message.startsWith('.agent-ledger/workspace.yaml') &&
        message.test(err.message),
      text,
    );
  }
});
