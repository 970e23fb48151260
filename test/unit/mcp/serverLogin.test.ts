import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ServerLogin } from '../../../src/mcp/serverLogin';
import { tempDir } from '../../helpers/tmp';

function workspaceWithTicket(ticket: string): { workspace: string; file: string } {
  const workspace = tempDir('agent-ledger-ws-');
  const file = path.join(workspace, '.agent-ledger', 'runs', 'exec-7.d', 'ticket');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${ticket}\n`, { mode: 0o600 });
  return { workspace, file };
}

test('the launch ticket is taken from the run’s ticket file as the server starts: the file is deleted, no variable is left', () => {
  const { workspace, file } = workspaceWithTicket('tkt-123');
  const env: NodeJS.ProcessEnv = { AGENT_LEDGER_LAUNCH_TICKET_FILE: file, AGENT_LEDGER_AGENT_ID: 'coder' };
  const login = ServerLogin.fromEnvironment(workspace, env);
  assert.equal(fs.existsSync(file), false, 'consumed');
  assert.equal(env.AGENT_LEDGER_LAUNCH_TICKET_FILE, undefined, 'nothing this server starts inherits even the name');
  assert.equal(login.takeTicket('reviewer'), undefined, 'only for the agent it was issued for');
  assert.equal(login.takeTicket('coder'), 'tkt-123');
  assert.equal(login.takeTicket('coder'), undefined, 'single-use');
});

test('a ticket file name that is not a run’s of this workspace is neither read nor deleted', () => {
  const { workspace } = workspaceWithTicket('tkt-123');
  const home = tempDir('agent-ledger-home-');
  const bashrc = path.join(home, '.bashrc');
  const ticketElsewhere = path.join(home, 'ticket');
  fs.writeFileSync(bashrc, 'alias ll="ls -l"\n');
  fs.writeFileSync(ticketElsewhere, 'x\n');
  const linked = path.join(workspace, '.agent-ledger', 'runs', 'exec-8.d');
  fs.mkdirSync(linked);
  fs.symlinkSync(bashrc, path.join(linked, 'ticket'));
  for (const file of [bashrc, ticketElsewhere, path.join(linked, 'ticket'), path.join(workspace, 'ticket')]) {
    const lines: string[] = [];
    const login = ServerLogin.fromEnvironment(
      workspace,
      { AGENT_LEDGER_LAUNCH_TICKET_FILE: file, AGENT_LEDGER_AGENT_ID: 'coder' },
      (l) => lines.push(l),
    );
    assert.equal(login.takeTicket('coder'), undefined, file);
    assert.match(lines.join('\n'), /ignored/, file);
  }
  assert.equal(fs.readFileSync(bashrc, 'utf8'), 'alias ll="ls -l"\n');
  assert.equal(fs.existsSync(ticketElsewhere), true);
});

test('a run of another ledger of the workspace (a team ledger’s runs/pg-<hash>/) gives its ticket; any other folder under runs/ does not', () => {
  const workspace = tempDir('agent-ledger-ws-');
  const write = (...parts: string[]) => {
    const file = path.join(workspace, '.agent-ledger', 'runs', ...parts, 'ticket');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'tkt-pg\n', { mode: 0o600 });
    return file;
  };
  const team = write('pg-0123abcd', 'exec-3.d');
  assert.equal(
    ServerLogin.fromEnvironment(workspace, { AGENT_LEDGER_LAUNCH_TICKET_FILE: team }).takeTicket('coder'),
    'tkt-pg',
  );
  assert.equal(fs.existsSync(team), false, 'consumed');
  for (const file of [write('other', 'exec-4.d'), write('pg-0123abcd', 'deeper', 'exec-5.d')]) {
    assert.equal(
      ServerLogin.fromEnvironment(workspace, { AGENT_LEDGER_LAUNCH_TICKET_FILE: file }).takeTicket('coder'),
      undefined,
      file,
    );
    assert.equal(fs.existsSync(file), true, 'neither read nor deleted');
  }
});
