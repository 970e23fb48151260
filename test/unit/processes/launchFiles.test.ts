// A run's private copy of a client's home, on real files: the user's entries linked in (their
// login and rules stay theirs), the run's files written beside them, the user's folder untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writePlanFiles } from '../../../src/processes/launchClient';
import { tempDir } from '../../helpers/tmp';

function tree(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of fs.readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      out.push(path.relative(root, file));
      if (fs.lstatSync(file).isDirectory()) walk(file);
    }
  };
  walk(root);
  return out;
}

test('a private home links the user’s entries and writes the run’s files beside them, never into the user’s folder', async () => {
  const user = tempDir('agent-ledger-user-codex-');
  fs.writeFileSync(path.join(user, 'auth.json'), '{"OPENAI_API_KEY":"sk-user"}');
  fs.writeFileSync(path.join(user, 'config.toml'), 'model = "gpt-5.5"\n');
  fs.mkdirSync(path.join(user, 'rules'));
  fs.writeFileSync(path.join(user, 'rules', 'mine.rules'), 'prefix_rule(pattern = ["rm"], decision = "forbidden")\n');
  const before = tree(user);
  const home = path.join(tempDir('agent-ledger-run-'), 'codex-home');
  const rules = path.join(home, 'rules', 'agent-ledger.rules');
  await writePlanFiles({ homes: [{ path: home, source: user }], files: [{ path: rules, content: 'ours\n' }] });

  assert.equal(fs.readlinkSync(path.join(home, 'auth.json')), path.join(user, 'auth.json'), 'the login is linked');
  assert.equal(fs.readlinkSync(path.join(home, 'config.toml')), path.join(user, 'config.toml'));
  assert.ok(!fs.lstatSync(path.join(home, 'rules')).isSymbolicLink(), 'a folder the run writes in is its own');
  assert.equal(fs.readlinkSync(path.join(home, 'rules', 'mine.rules')), path.join(user, 'rules', 'mine.rules'));
  assert.equal(fs.readFileSync(rules, 'utf8'), 'ours\n');
  assert.equal(fs.statSync(rules).mode & 0o777, 0o600);
  assert.deepEqual(tree(user), before, 'nothing written in the user’s folder');
  // A login refreshed by the client goes to the user's own file.
  fs.writeFileSync(path.join(home, 'auth.json'), '{"OPENAI_API_KEY":"sk-refreshed"}');
  assert.equal(fs.readFileSync(path.join(user, 'auth.json'), 'utf8'), '{"OPENAI_API_KEY":"sk-refreshed"}');
});

test('settings: the user’s (comments allowed) with the run’s laid over, defaults only where nobody set one', async () => {
  const user = tempDir('agent-ledger-user-gemini-');
  fs.writeFileSync(
    path.join(user, 'settings.json'),
    '{\n  // mine\n  "ui": { "theme": "Dracula" },\n  "mcpServers": { "mine": { "command": "x" } },\n  "model": { "name": "gemini-pro" },\n}\n',
  );
  fs.writeFileSync(path.join(user, 'oauth_creds.json'), '{}');
  const home = path.join(tempDir('agent-ledger-run-'), '.gemini');
  const settings = path.join(home, 'settings.json');
  const ours = { mcpServers: { 'agent-ledger': { command: 'node', trust: true } }, model: { maxSessionTurns: 5 } };
  await writePlanFiles({
    homes: [{ path: home, source: user }],
    files: [
      {
        path: settings,
        content: JSON.stringify(ours),
        mergeJsonFrom: path.join(user, 'settings.json'),
        jsonDefaults: { security: { auth: { selectedType: 'gemini-api-key' } }, ui: { theme: 'Default' } },
      },
    ],
  });
  assert.deepEqual(JSON.parse(fs.readFileSync(settings, 'utf8')), {
    security: { auth: { selectedType: 'gemini-api-key' } },
    ui: { theme: 'Dracula' },
    mcpServers: { mine: { command: 'x' }, 'agent-ledger': { command: 'node', trust: true } },
    model: { name: 'gemini-pro', maxSessionTurns: 5 },
  });
  assert.ok(!fs.lstatSync(settings).isSymbolicLink());
  assert.ok(fs.lstatSync(path.join(home, 'oauth_creds.json')).isSymbolicLink(), 'the Google login is linked');
  assert.match(fs.readFileSync(path.join(user, 'settings.json'), 'utf8'), /\/\/ mine/, 'the user’s file as it was');
});

test('no folder of the user’s: the home holds the run’s files only', async () => {
  const home = path.join(tempDir('agent-ledger-run-'), 'h');
  await writePlanFiles({
    homes: [{ path: home, source: path.join(home, 'missing') }],
    files: [{ path: path.join(home, 'a.json'), content: '{"a":1}', mergeJsonFrom: path.join(home, 'none.json') }],
  });
  assert.deepEqual(tree(home), ['a.json']);
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(home, 'a.json'), 'utf8')), { a: 1 });
});
