// Several machines on one PostgreSQL ledger, through the tools: each machine is a clone of one
// repository (AGENT_LEDGER_MACHINE differs) running its own MCP server processes (the real SDK
// client over stdio against dist/cli.js --db postgres://…). Nothing acknowledged is lost or
// doubled — with many writers, with a writer killed -9 mid-stream, with the server restarted.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { createTestDatabase, pgPassword, pgSkip, withAdmin } from '../helpers/postgres';
import { git, tempDir, tempRepo } from '../helpers/tmp';
import { initLedgerDb } from '../../src/store/admin/dbAdmin';
// @ts-expect-error: a plain .mjs script without types
import { restartTestPostgres, startTestPostgres, stopTestPostgres } from '../../scripts/testPostgres.mjs';

const streamer = path.join(__dirname, 'writerStream.fixture.ts');

interface Machine {
  name: string;
  clone: string;
  env: NodeJS.ProcessEnv;
}

/** `count` machines: clones of one repository, each with its own name, all on `url`. */
function machines(count: number, password: string, extra: NodeJS.ProcessEnv = {}): Machine[] {
  const origin = tempRepo({ 'README.md': '# team\n' });
  return Array.from({ length: count }, (_, m) => {
    const clone = path.join(tempDir('agent-ledger-machine-'), 'repo');
    git(path.dirname(clone), 'clone', '-q', origin, clone);
    const name = `machine-${m}`;
    return {
      name,
      clone,
      env: {
        ...process.env,
        AGENT_LEDGER_DB: undefined,
        AGENT_LEDGER_DB_PASSWORD: password,
        PGPASSWORD: undefined,
        AGENT_LEDGER_MACHINE: name,
        ...extra,
      },
    };
  });
}

/** task_create `count` times, one after the other; resolves with the titles the server acknowledged. */
async function createTasks(c: LedgerClient, label: string, count: number): Promise<string[]> {
  const acked: string[] = [];
  for (let n = 0; n < count; n++) {
    const title = `${label}-${n}`;
    await c.call('task_create', { title });
    acked.push(title);
  }
  return acked;
}

/** Every task row of the database: title and the machine that wrote it. */
async function taskRows(
  database: string,
  password?: string,
  url?: string,
): Promise<{ title: string; machine_id: string | null }[]> {
  if (!url)
    return withAdmin((client) => client.query('SELECT title, machine_id FROM tasks').then((r) => r.rows), database);
  const { Client } = await import('pg');
  const u = new URL(url);
  const client = new Client({ host: u.hostname, port: Number(u.port), user: u.username, database, password });
  await client.connect();
  try {
    return (await client.query('SELECT title, machine_id FROM tasks')).rows;
  } finally {
    await client.end();
  }
}

/** Asserts every acknowledged title is there exactly once, written by the machine its label names. */
function assertExactlyOnce(rows: { title: string; machine_id: string | null }[], acknowledged: string[]): void {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.title, (counts.get(r.title) ?? 0) + 1);
  const doubled = [...counts].filter(([, n]) => n > 1).map(([t]) => t);
  assert.deepEqual(doubled, [], 'no write doubled');
  const missing = acknowledged.filter((t) => !counts.has(t));
  assert.deepEqual(missing, [], 'no acknowledged write lost');
  for (const r of rows) {
    const machine = /^(machine-\d+)/.exec(r.title)?.[1];
    if (machine) assert.equal(r.machine_id, machine, `${r.title} is attributed to the machine that wrote it`);
  }
}

describe('several machines on one PostgreSQL ledger, through the tools', { skip: pgSkip }, () => {
  test(
    '3 machines × 3 server processes × 200 task_create: every write once, attributed to its machine',
    { timeout: 600_000 },
    async () => {
      const db = await createTestDatabase();
      try {
        await initLedgerDb(db.url, { env: { AGENT_LEDGER_DB_PASSWORD: pgPassword } });
        const team = machines(3, pgPassword!);
        const clients = await Promise.all(
          team.flatMap((m) =>
            [0, 1, 2].map(async (p) => ({ m, p, c: await connect(m.clone, ['--db', db.url], { env: m.env }) })),
          ),
        );
        try {
          const acked = (
            await Promise.all(clients.map(({ m, p, c }) => createTasks(c, `${m.name}-p${p}`, 200)))
          ).flat();
          assert.equal(acked.length, 1800);
          const rows = await taskRows(db.name);
          assert.equal(rows.length, 1800);
          assertExactlyOnce(rows, acked);
          // And the tools read it back the same on every machine: task_get of one machine's task on another.
          const one = clients[0].c;
          const far = clients[clients.length - 1].c;
          const { id } = await one.call<{ id: number }>('task_create', { title: 'machine-0 read from afar' });
          const read = await far.call<{ title: string; machineId: string }>('task_get', { id });
          assert.equal(read.title, 'machine-0 read from afar');
          assert.equal(read.machineId, 'machine-0');
        } finally {
          await Promise.all(clients.map(({ c }) => c.close()));
        }
      } finally {
        await db.drop();
      }
    },
  );

  test(
    'kill -9 of a server mid-stream on one machine, while another machine writes: no acknowledged write lost',
    { timeout: 300_000 },
    async () => {
      const db = await createTestDatabase();
      try {
        await initLedgerDb(db.url, { env: { AGENT_LEDGER_DB_PASSWORD: pgPassword } });
        const [victim, steady] = machines(2, pgPassword!);
        const other = await connect(steady.clone, ['--db', db.url], { env: steady.env });
        const acknowledged: string[] = [];
        const rounds = 6;
        let writing = true;
        const steadyWrites = (async () => {
          for (let n = 0; writing; n++) {
            await other.call('task_create', { title: `${steady.name}-steady-${n}` });
            acknowledged.push(`${steady.name}-steady-${n}`);
          }
        })();
        try {
          for (let round = 0; round < rounds; round++) {
            // The streaming client's server reads the database from its environment (ledgerEnv keeps an AGENT_LEDGER_DB it is given).
            const env = { ...victim.env, AGENT_LEDGER_DB: db.url };
            const child = spawn(
              process.execPath,
              ['--import', 'tsx', streamer, victim.clone, `${victim.name}-r${round}`],
              { stdio: ['ignore', 'pipe', 'pipe'], env },
            );
            let out = '';
            let err = '';
            child.stdout.on('data', (d: Buffer) => (out += d.toString()));
            child.stderr.on('data', (d: Buffer) => (err += d.toString()));
            const exited = new Promise((r) => child.on('exit', r));
            try {
              const deadline = Date.now() + 30_000;
              while (!/^ACK /m.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
              const serverPid = Number(/SERVER (\d+)/.exec(out)?.[1]);
              assert.ok(serverPid > 0 && /^ACK /m.test(out), `round ${round}: the stream did not start: ${err}`);
              await new Promise((r) => setTimeout(r, 200 + Math.random() * 1_200));
              process.kill(serverPid, 'SIGKILL');
            } finally {
              child.kill('SIGKILL');
              await exited;
            }
            // The streamer's lines: "ACK task-<id> <label>-<n>"; its tasks are titled <label>-<n>.
            acknowledged.push(...[...out.matchAll(/^ACK \S+ (.+)$/gm)].map((m) => m[1]));
          }
        } finally {
          writing = false;
          await steadyWrites;
          await other.close();
        }
        const rows = await taskRows(db.name);
        assertExactlyOnce(rows, acknowledged);
        // Each round waited for a first acknowledged write before the kill (asserted above).
        assert.ok(
          acknowledged.filter((t) => /-r\d+-\d+$/.test(t)).length >= rounds,
          `writes of the killed servers were exercised (${acknowledged.length})`,
        );
        // The surviving machine went on writing while the other one's servers died.
        assert.ok(acknowledged.filter((t) => t.includes('steady')).length >= 10);
      } finally {
        await db.drop();
      }
    },
  );

  test(
    'the server restarted mid-stream: calls wait and retry, nothing acknowledged lost or doubled',
    { timeout: 300_000 },
    async () => {
      // A server of its own: restarting the shared one would disturb the other tests of the run.
      const server = await startTestPostgres();
      try {
        const admin = new URL(server.url);
        await taskRowsSetup(server);
        const url = new URL('/restart', admin).toString();
        await initLedgerDb(url, { env: { AGENT_LEDGER_DB_PASSWORD: server.password } });
        const team = machines(3, server.password, { AGENT_LEDGER_DB_RETRY_MS: '30000' });
        const clients = await Promise.all(
          team.map(async (m) => ({ m, c: await connect(m.clone, ['--db', url], { env: m.env }) })),
        );
        const acknowledged: string[] = [];
        const failures: string[] = [];
        let restarted = false;
        try {
          const streams = clients.map(async ({ m, c }) => {
            for (let n = 0; n < 120; n++) {
              const title = `${m.name}-s${n}`;
              try {
                await c.call('task_create', { title });
                acknowledged.push(title);
              } catch (err) {
                failures.push(`${title}: ${String(err).slice(0, 200)}`);
              }
              // Restart once the stream is well under way (the other calls are in flight meanwhile).
              if (!restarted && acknowledged.length >= 60) {
                restarted = true;
                await new Promise((r) => setTimeout(r, 0));
                restartTestPostgres(server, 1_500);
              }
            }
          });
          await Promise.all(streams);
        } finally {
          await Promise.all(clients.map(({ c }) => c.close()));
        }
        assert.equal(restarted, true);
        assert.deepEqual(failures, [], 'every call made during the restart waited and went through');
        assert.equal(acknowledged.length, 360);
        const rows = await taskRows('restart', server.password, server.url);
        assert.equal(rows.length, 360);
        assertExactlyOnce(rows, acknowledged);
      } finally {
        stopTestPostgres(server);
      }
    },
  );
});

/** Creates the `restart` database on a server of the test's own. */
async function taskRowsSetup(server: { url: string; password: string }): Promise<void> {
  const { Client } = await import('pg');
  const u = new URL(server.url);
  const client = new Client({
    host: u.hostname,
    port: Number(u.port),
    user: u.username,
    database: 'postgres',
    password: server.password,
  });
  await client.connect();
  try {
    await client.query('CREATE DATABASE restart');
  } finally {
    await client.end();
  }
}
