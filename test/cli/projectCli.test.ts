import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, cliError, cliJson } from '../helpers/cli';
import { tempRepo } from '../helpers/tmp';

/** `agent-ledger project …` and `agent-ledger agent passkey`, as a person runs them. */

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

test('project create / add-agent / remove-agent / archive / list / show', () => {
  const repo = tempRepo({ 'README.md': '# r\n', 'svc/a.txt': 'a\n' });
  const ws = ['--workspace', repo];
  const p = cliJson<{ project_id: string; working_directory: string; agents: string[]; status: string }>([
    'project',
    'create',
    'svc',
    '--dir',
    'svc',
    '--description',
    'the service',
    ...ws,
  ]);
  assert.deepEqual(
    [p.project_id, p.working_directory, p.agents, p.status],
    ['prj-1', path.join(repo, 'svc'), [], 'active'],
  );
  assert.deepEqual(cliJson<{ agents: string[] }>(['project', 'add-agent', 'svc', 'coder', ...ws]).agents, ['coder']);
  assert.deepEqual(cliJson<{ agents: string[] }>(['project', 'add-agent', 'prj-1', 'reviewer', ...ws]).agents, [
    'coder',
    'reviewer',
  ]);
  assert.deepEqual(cliJson<{ agents: string[] }>(['project', 'remove-agent', '1', 'reviewer', ...ws]).agents, [
    'coder',
  ]);
  const root = cliJson<{ project_id: string; working_directory: string }>(['project', 'create', 'whole', ...ws]);
  assert.equal(root.working_directory, repo, 'the workspace itself by default');

  const outside = cli(['project', 'create', 'escape', '--dir', '..', ...ws, '--json']);
  assert.equal(outside.code, 2);
  assert.equal(cliError(outside).reason, 'ValidationError');
  const missing = cli(['project', 'create', 'ghost', '--dir', 'nope', ...ws, '--json']);
  assert.equal(cliError(missing).reason, 'ValidationError');
  assert.equal(cliError(cli(['project', 'create', 'svc', ...ws, '--json'])).message.includes('already exists'), true);
  assert.equal(
    cliError(cli(['project', 'create', 'prj-9', ...ws, '--json'])).reason,
    'ValidationError',
    'a name shaped like an id is refused',
  );
  assert.equal(cliError(cli(['project', 'add-agent', 'svc', 'ghost', ...ws, '--json'])).reason, 'AgentNotFound');
  assert.equal(cli(['project', 'add-agent', 'nope', 'coder', ...ws]).code, 5);

  assert.equal(cliJson<{ status: string }>(['project', 'archive', 'whole', ...ws]).status, 'archived');
  const list = cli(['project', 'list', ...ws]);
  assert.equal(list.code, 0);
  assert.match(list.stdout, /prj-1\s+svc\s+active\s+coder/);
  assert.match(list.stdout, /prj-2\s+whole\s+archived/);
  const show = cli(['project', 'show', 'svc', ...ws]);
  assert.match(show.stdout, /the service/);
  assert.match(show.stdout, /tasks: none/);
  assert.equal(cliJson<{ project: { name: string } }>(['project', 'show', 'prj-2', ...ws]).project.name, 'whole');
});

test('agent passkey: from standard input or generated and shown once, never an argument, stored only hashed', () => {
  const repo = tempRepo();
  const ws = ['--workspace', repo];
  const secret = 'piped passkey 7f3e9a1c';
  const set = cli(['agent', 'passkey', 'coder', ...ws], { input: `${secret}\n` });
  assert.equal(set.code, 0, set.stderr);
  assert.match(set.stdout, /passkey of coder set/);
  assert.doesNotMatch(set.stdout, new RegExp(secret));

  const gen = cliJson<{ agent_id: string; passkey: string }>(['agent', 'passkey', 'reviewer', '--generate', ...ws]);
  assert.equal(gen.agent_id, 'reviewer');
  assert.ok(gen.passkey.length >= 24);

  const asArgument = cli(['agent', 'passkey', 'coder', 'on-the-command-line', ...ws]);
  assert.notEqual(asArgument.code, 0, 'a passkey as an argument is refused');
  assert.equal(cli(['agent', 'passkey', 'coder', ...ws], { input: '' }).code, 2, 'nothing piped in');
  assert.equal(cli(['agent', 'passkey', 'coder', ...ws], { input: 'short\n' }).code, 2, 'too short');
  assert.equal(cli(['agent', 'passkey', 'ghost', ...ws], { input: `${secret}\n` }).code, 5);

  for (const file of filesUnder(path.join(repo, '.agent-ledger'))) {
    const bytes = fs.readFileSync(file);
    assert.equal(bytes.includes(secret), false, `${file} holds the passkey`);
    assert.equal(bytes.includes(gen.passkey), false, `${file} holds the generated passkey`);
  }
});
