// A team ledger on PostgreSQL in a real VS Code (code-server + Chromium): the in-host tests of
// agentLedger/teamHost/ set `agentLedger.database` and the password (secret storage), then check
// the views, Copilot's MCP server, settings.json and the status bar while this process stops and
// restarts the server and writes as another machine would. Needs Debian's postgresql binaries.
// Run alone: npm run e2e:setup && node --import tsx --test --test-reporter=spec test/e2e/teamLedger.e2e.ts
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createServices } from '../../src/app/services';
import { initLedgerDb } from '../../src/store/admin/dbAdmin';
// prettier-ignore
// @ts-expect-error: a plain .mjs script without types
import { findPostgresBin, pauseTestPostgres, resumeTestPostgres, startTestPostgres, stopTestPostgres } from '../../scripts/testPostgres.mjs';
import { formatReport, runExtensionTests } from './harness/extensionTests';
import { buildHostTests } from './harness/hostTests';
import { assertHostInstalled } from './harness/paths';
import { outRoot, packageAgentLedger } from './agentLedger/extensionPackage';
import type { PackagedExtension } from './agentLedger/extensionPackage';
import { createWorkspace } from './agentLedger/workspace';

const skip =
  findPostgresBin() || process.env.CI ? false : 'PostgreSQL server binaries not found (apt-get install -y postgresql)';

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

describe('a team ledger on PostgreSQL in the editor', { skip, timeout: 600_000 }, () => {
  let pkg: PackagedExtension;
  let server: { url: string; password: string };
  let url = '';
  let workspace = '';
  let otherMachine = '';
  let signals = '';

  /** The other machine: its own clone, writing to the same database. */
  async function writeAs(title: string): Promise<void> {
    const services = await createServices({ workspace: otherMachine, dbPath: url, dbPassword: server.password });
    try {
      const { workflow_id } = await services.workflows.start({ name: `${title} flow` });
      await services.tracking.startTask({ workflow_id, name: title, goal: 'Seen on every machine' });
    } finally {
      await services.dispose();
    }
  }

  before(async () => {
    assertHostInstalled();
    pkg = await packageAgentLedger();
    server = await startTestPostgres();
    url = new URL('/team', server.url).toString();
    const admin = new URL(server.url);
    const { Client } = await import('pg');
    const client = new Client({
      host: admin.hostname,
      port: Number(admin.port),
      user: admin.username,
      database: 'postgres',
      password: server.password,
    });
    await client.connect();
    await client.query('CREATE DATABASE team');
    await client.end();
    await initLedgerDb(url, { env: { AGENT_LEDGER_DB_PASSWORD: server.password } });
    workspace = createWorkspace('al-e2e-team-', false);
    otherMachine = createWorkspace('al-e2e-team-b-', false);
    signals = mkdtempSync(path.join(os.tmpdir(), 'al-e2e-signals-'));
    await writeAs('Recorded on another machine');
  });

  after(() => {
    if (server) stopTestPostgres(server);
    for (const d of [workspace, otherMachine, signals]) if (d) rmSync(d, { recursive: true, force: true });
  });

  it('the setting and the stored password lead the views and the MCP server to it; it reconnects by itself', async () => {
    const extensionTestsPath = await buildHostTests({
      testFiles: [path.join(__dirname, 'agentLedger', 'teamHost', 'teamLedger.host.ts')],
      outDir: path.join(outRoot, 'agent-ledger-team-tests'),
    });
    // The outer side of the conversation: stop / start the server and write as another machine when asked.
    let stopped = false;
    const handled = new Set<string>();
    const poll = setInterval(() => {
      for (const what of ['stop', 'start', 'write']) {
        if (handled.has(what) || !existsSync(path.join(signals, what))) continue;
        handled.add(what);
        const done = (): void => writeFileSync(path.join(signals, `${what}.done`), '');
        if (what === 'stop') {
          pauseTestPostgres(server);
          stopped = true;
          done();
        }
        if (what === 'start') {
          resumeTestPostgres(server);
          stopped = false;
          done();
        }
        if (what === 'write')
          void writeAs('Written after the restart').then(done, (err) => console.error('write failed:', err));
      }
    }, 200);
    let result;
    try {
      result = await runExtensionTests({
        name: 'agent-ledger-team-ledger',
        extensionDevelopmentPath: pkg.unpackedDir,
        extensionTestsPath,
        workspace,
        timeoutMs: 480_000,
        // The password reaches the in-host tests only to type it into the command; the extension
        // and its MCP servers read AGENT_LEDGER_DB_PASSWORD / PGPASSWORD, which stay unset.
        env: {
          E2E_TEAM_PG_URL: url,
          E2E_TEAM_PG_PASSWORD: server.password,
          E2E_TEAM_SIGNALS: signals,
          AGENT_LEDGER_DB_RETRY_MS: '3000',
        },
      });
    } finally {
      clearInterval(poll);
      if (stopped) resumeTestPostgres(server);
    }
    const summary = `${formatReport(result.report)}\n(run folder: ${result.runDir}, ${(result.durationMs / 1000).toFixed(1)} s)`;
    console.log(summary);
    assert.equal(result.timedOut, false, `timed out\n${summary}`);
    assert.equal(result.exitCode, 0, summary);
    const declared =
      readFileSync(path.join(__dirname, 'agentLedger', 'teamHost', 'teamLedger.host.ts'), 'utf8').match(/^\s*it\(/gm)
        ?.length ?? 0;
    assert.equal(result.report?.stats.passes, declared, summary);
    // No log of the run (code-server, extension host, output channels, MCP servers) holds the password.
    const leaking = filesUnder(result.runDir).filter(
      (f) => !f.endsWith('.png') && readFileSync(f, 'utf8').includes(server.password),
    );
    assert.deepEqual(leaking, [], 'files holding the password');
    // What Copilot's server wrote is in PostgreSQL, not in a local file.
    const services = await createServices({ workspace: otherMachine, dbPath: url, dbPassword: server.password });
    try {
      const titles = (await services.tasks.list({ limit: 100, offset: 0 })).tasks.map((t) => t.title);
      assert.ok(titles.includes('Started by Copilot'), titles.join(', '));
    } finally {
      await services.dispose();
    }
  });
});
