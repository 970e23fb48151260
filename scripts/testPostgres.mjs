// A throwaway PostgreSQL server for tests and benchmarks: Debian's `postgresql` binaries, a
// temporary data directory, a free loopback port, a generated password (scram-sha-256), no Unix
// socket. initdb refuses to run as root, so as root the server runs as the `postgres` OS user (the
// package creates it), or as `nobody` when there is none.
//
//   const server = await startTestPostgres();   // { url, password, dataDir, port, env }
//   await restartTestPostgres(server);           // the "server restarted" tests
//   await stopTestPostgres(server);              // stops it and deletes the data directory
//
// scripts/runTests.mjs starts one per test run and exports AGENT_LEDGER_TEST_PG_URL (no password
// in it), AGENT_LEDGER_TEST_PG_PASSWORD and AGENT_LEDGER_TEST_PG_DATA (+ _BIN, _USER for restarts).
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The folder of initdb/pg_ctl: $AGENT_LEDGER_PG_BIN, else the newest /usr/lib/postgresql/<v>/bin, else PATH. */
export function findPostgresBin() {
  if (process.env.AGENT_LEDGER_PG_BIN) return process.env.AGENT_LEDGER_PG_BIN;
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length) return path.join(root, versions[0], 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  return which.status === 0 ? path.dirname(which.stdout.trim()) : undefined;
}

function serverUser() {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    if (spawnSync('id', ['-u', name]).status === 0) return name;
  }
  throw new Error('running as root and neither a postgres nor a nobody user exists to run the test server');
}

function ids(user) {
  return {
    uid: Number(execFileSync('id', ['-u', user], { encoding: 'utf8' })),
    gid: Number(execFileSync('id', ['-g', user], { encoding: 'utf8' })),
  };
}

/** Runs a server binary, as `user` when given (root). */
function runAs(user, bin, args, options = {}) {
  const command = user ? 'runuser' : bin;
  const argv = user ? ['-u', user, '--', bin, ...args] : args;
  const r = spawnSync(command, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
  if (r.status !== 0)
    throw new Error(`${path.basename(bin)} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function pgCtl(server, ...args) {
  return runAs(server.user, path.join(server.bin, 'pg_ctl'), ['-D', server.dataDir, ...args]);
}

function startArgs(server) {
  const opts = `-p ${server.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_connections=300 -c shared_buffers=32MB`;
  return ['-w', '-t', '60', '-l', path.join(server.dataDir, 'server.log'), '-o', opts, 'start'];
}

/** Starts a fresh server; resolves with its URL (no password), password and env for child processes. */
export async function startTestPostgres() {
  const bin = findPostgresBin();
  if (!bin)
    throw new Error('PostgreSQL server binaries not found: apt-get install -y postgresql (or set AGENT_LEDGER_PG_BIN)');
  const user = serverUser();
  const base = mkdtempSync(path.join(tmpdir(), 'agent-ledger-pg-'));
  const dataDir = path.join(base, 'data');
  const password = randomBytes(18).toString('base64url');
  const pwfile = path.join(base, 'pw');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (user) {
    const { uid, gid } = ids(user);
    chownSync(base, uid, gid);
    chownSync(pwfile, uid, gid);
    chmodSync(base, 0o700);
  }
  runAs(user, path.join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'ledger_admin',
    '--pwfile',
    pwfile,
    '--auth=scram-sha-256',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);
  rmSync(pwfile, { force: true });
  const server = { bin, user, base, dataDir, password, port: await freePort() };
  pgCtl(server, ...startArgs(server));
  server.url = `postgres://ledger_admin@127.0.0.1:${server.port}/postgres`;
  server.env = {
    AGENT_LEDGER_TEST_PG_URL: server.url,
    AGENT_LEDGER_TEST_PG_PASSWORD: password,
    AGENT_LEDGER_TEST_PG_DATA: dataDir,
    AGENT_LEDGER_TEST_PG_BIN: bin,
    AGENT_LEDGER_TEST_PG_USER: user ?? '',
    AGENT_LEDGER_TEST_PG_PORT: String(server.port),
  };
  return server;
}

/** The server described by the environment runTests.mjs exported (for tests that restart it). */
export function testPostgresFromEnv(env = process.env) {
  if (!env.AGENT_LEDGER_TEST_PG_DATA) return undefined;
  return {
    bin: env.AGENT_LEDGER_TEST_PG_BIN,
    user: env.AGENT_LEDGER_TEST_PG_USER || undefined,
    dataDir: env.AGENT_LEDGER_TEST_PG_DATA,
    port: Number(env.AGENT_LEDGER_TEST_PG_PORT),
  };
}

/** Stops the server (`fast`: clients are disconnected) and starts it again on the same port. */
export function restartTestPostgres(server, downMs = 0) {
  pauseTestPostgres(server);
  if (downMs > 0) spawnSync('sleep', [String(downMs / 1000)]);
  resumeTestPostgres(server);
}

/** Stops the server, keeping its data: clients see it go away until {@link resumeTestPostgres}. */
export function pauseTestPostgres(server) {
  pgCtl(server, '-m', 'fast', '-w', 'stop');
}

/** Starts a paused server again on the same port. */
export function resumeTestPostgres(server) {
  pgCtl(server, ...startArgs(server));
}

/** Stops the server and deletes its data. */
export function stopTestPostgres(server) {
  try {
    pgCtl(server, '-m', 'immediate', '-w', 'stop');
  } catch {
    // already stopped
  }
  rmSync(server.base, { recursive: true, force: true });
}
