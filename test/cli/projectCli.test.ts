import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, cliError, cliJson } from '../helpers/cli';
import { connect } from '../helpers/mcpClient';
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

test('agent passkey: a line break inside what is piped in is refused and nothing is stored; one final newline is not part of it', async () => {
  const repo = tempRepo();
  const ws = ['--workspace', repo];
  // `printf 'k\nk\n'` (a file of two lines, a paste with a newline in it) used to store "k\nk".
  for (const input of [
    'passkey-7f3e9a1c\npasskey-7f3e9a1c\n',
    'passkey-7f3e9a1c\n\n',
    'first-line-7f3e9\rsecond-line\n',
  ]) {
    const refused = cli(['agent', 'passkey', 'coder', ...ws, '--json'], { input });
    assert.equal(refused.code, 2, `${JSON.stringify(input)}: ${refused.stderr}`);
    assert.equal(cliError(refused).reason, 'ValidationError');
    assert.match(cliError(refused).message, /line break/);
  }
  const c = await connect(repo, ['--enable-pm']);
  try {
    const profile = await c.call<{ agent: { has_passkey: boolean } }>('get_agent_profile', { agent_id: 'coder' });
    assert.equal(profile.agent.has_passkey, false, 'a refused passkey stores nothing');
    for (const input of ['one-line-7f3e9a1c\n', 'one-line-7f3e9a1c\r\n', 'one-line-7f3e9a1c'])
      assert.equal(cli(['agent', 'passkey', 'coder', ...ws], { input }).code, 0, JSON.stringify(input));
    const set = await c.call<{ agent: { has_passkey: boolean } }>('get_agent_profile', { agent_id: 'coder' });
    assert.equal(set.agent.has_passkey, true);
  } finally {
    await c.close();
  }
});

test('an agent file of your own leaves the built-in coder and reviewer available: project add-agent … coder works', () => {
  const repo = tempRepo({ 'README.md': '# r\n' });
  const ws = ['--workspace', repo];
  // The person's own agent, written before the ledger ever wrote its built-ins.
  fs.mkdirSync(path.join(repo, '.agent-ledger', 'agents'), { recursive: true });
  fs.writeFileSync(
    path.join(repo, '.agent-ledger', 'agents', 'docs-writer.yaml'),
    'name: docs-writer\ndescription: Writes the docs\nclient: claude-code\n',
  );
  cliJson(['project', 'create', 'app', '--dir', '.', ...ws]);
  const added = cliJson<{ agents: string[] }>(['project', 'add-agent', 'app', 'coder', ...ws]);
  assert.deepEqual(added.agents, ['coder']);
  assert.deepEqual(cliJson<{ agents: string[] }>(['project', 'add-agent', 'app', 'docs-writer', ...ws]).agents, [
    'coder',
    'docs-writer',
  ]);
  const listed = cliJson<{ agents: { name: string; file: string }[] }>(['agent', 'list', ...ws]);
  assert.deepEqual(listed.agents.map((a) => [a.name, a.file]).sort(), [
    ['coder', '.agent-ledger/agents/coder.yaml'],
    ['docs-writer', '.agent-ledger/agents/docs-writer.yaml'],
    ['reviewer', '.agent-ledger/agents/reviewer.yaml'],
  ]);
  // The built-ins are real files now, beside the person's; deleting one keeps it deleted.
  fs.rmSync(path.join(repo, '.agent-ledger', 'agents', 'reviewer.yaml'));
  assert.deepEqual(
    cliJson<{ agents: { name: string }[] }>(['agent', 'list', ...ws])
      .agents.map((a) => a.name)
      .sort(),
    ['coder', 'docs-writer'],
  );
  const gone = cli(['project', 'add-agent', 'app', 'reviewer', '--json', ...ws]);
  assert.notEqual(gone.code, 0);
  assert.equal(cliError(gone).reason, 'AgentNotFound');
});
