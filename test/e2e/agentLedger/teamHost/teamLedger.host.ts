// In the extension host, on a real PostgreSQL (test/e2e/teamLedger.e2e.ts starts it and writes
// from "another machine"): the agentLedger.database setting plus Set Database Password lead the
// views and Copilot's MCP server to the team ledger; settings.json never holds the password; the
// status bar follows the server going away and coming back, and the views recover by themselves.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { api, folder, invoke, startLedgerServer, treeText, until } from '../host/hostHelpers';

const url = process.env.E2E_TEAM_PG_URL!;
const password = process.env.E2E_TEAM_PG_PASSWORD!;
const signals = process.env.E2E_TEAM_SIGNALS!;

/** Asks the outer test for something (restart the server…) and waits until it says it is done. */
async function ask(what: string, timeoutMs: number): Promise<void> {
  writeFileSync(path.join(signals, what), '');
  await until(`the outer test to ${what}`, () => existsSync(path.join(signals, `${what}.done`)), timeoutMs);
}

async function status(): Promise<{ text: string | undefined; state: string | undefined; reason: string | undefined }> {
  const d = (await api()).testing.databaseStatus();
  return { text: d.text, state: d.folders[0]?.state, reason: d.folders[0]?.reason };
}

describe('a team ledger on PostgreSQL (agentLedger.database + the password in secret storage)', () => {
  it('with the setting but no password, says why it is offline (and no password shows anywhere)', async function () {
    this.timeout(60_000);
    await vscode.workspace.getConfiguration('agentLedger').update('database', url, vscode.ConfigurationTarget.Global);
    const { value } = await until(
      'the status bar to say offline',
      async () => ((await status()).state === 'offline' ? status() : undefined),
      45_000,
    );
    assert.equal(value.text, '$(debug-disconnect) Team ledger: offline');
    assert.match(value.reason ?? '', /password|refused the login|authentication/i);
  });

  it('Set Database Password stores it in secret storage; the views read the team ledger', async function () {
    this.timeout(90_000);
    const stored = await vscode.commands.executeCommand<boolean>('agentLedger.setDatabasePassword', {
      folder: folder(),
      password,
    });
    assert.equal(stored, true);
    await until('the status bar to say connected', async () => (await status()).state === 'connected', 45_000);
    assert.equal((await status()).text, '$(database) Team ledger: connected');
    await until(
      'the task recorded on another machine in the Tasks view',
      async () => (await treeText()).includes('Recorded on another machine'),
      30_000,
    );
    assert.equal(existsSync(path.join(folder(), '.agent-ledger', 'ledger.db')), false, 'no embedded store was created');
  });

  it('settings.json holds the URL and never the password', () => {
    // code-server's user data sits beside the TMPDIR the harness gives it.
    const userSettings = path.join(path.dirname(process.env.TMPDIR!), 'user-data', 'User', 'settings.json');
    const text = readFileSync(userSettings, 'utf8');
    assert.ok(text.includes(url), `the setting is in ${userSettings}`);
    assert.equal(text.includes(password), false);
    const workspaceSettings = path.join(folder(), '.vscode', 'settings.json');
    if (existsSync(workspaceSettings)) assert.equal(readFileSync(workspaceSettings, 'utf8').includes(password), false);
  });

  it('Copilot’s MCP server writes to the same PostgreSQL ledger (its password by environment)', async function () {
    this.timeout(120_000);
    await startLedgerServer(90_000);
    const { workflow_id } = await invoke<{ workflow_id: string }>('start_workflow', {
      name: 'Team flow',
      description: 'On the shared database',
    });
    await invoke('start_task', { workflow_id, name: 'Started by Copilot', goal: 'Show up for the whole team' });
    await until(
      'the MCP-written task in the Tasks view',
      async () => (await treeText()).includes('Started by Copilot'),
      15_000,
    );
    assert.equal(
      existsSync(path.join(folder(), '.agent-ledger', 'ledger.db')),
      false,
      'the MCP server did not fall back to an embedded store',
    );
  });

  it('the server going away shows offline with the reason; it comes back by itself', async function () {
    this.timeout(150_000);
    writeFileSync(path.join(signals, 'stop'), '');
    const { value: down } = await until(
      'the status bar to leave connected',
      async () => {
        const s = await status();
        return s.state === 'offline' || s.state === 'reconnecting' ? s : undefined;
      },
      30_000,
    );
    const { value: offline } = await until(
      'offline with a reason',
      async () => ((await status()).state === 'offline' ? status() : undefined),
      30_000,
    );
    assert.ok(down.text?.includes('Team ledger'));
    assert.ok(offline.reason && !offline.reason.includes(password), `a reason without the password: ${offline.reason}`);
    await ask('start', 60_000);
    await until('the status bar to say connected again', async () => (await status()).state === 'connected', 60_000);
    // Another machine writes after the restart: the view shows it without anyone refreshing.
    await ask('write', 30_000);
    await until(
      'the task written after the restart in the Tasks view',
      async () => (await treeText()).includes('Written after the restart'),
      30_000,
    );
    // Copilot's server reconnects too.
    const { workflow_id } = await until(
      'start_workflow to answer again',
      () => invoke<{ workflow_id: string }>('start_workflow', { name: 'After the outage' }).catch(() => undefined),
      60_000,
    ).then((r) => r.value);
    assert.match(workflow_id, /^wf-\d+$/);
  });
});
