// The two engines behind one test interface: every conformance test runs on both.
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { LedgerEngine } from '../../../../src/store/engine';
import { openEngine } from '../../../../src/store/openEngine';
import type { OpenEngineOptions } from '../../../../src/store/openEngine';
import { createTestDatabase, pgEnv, pgSkip } from '../../../helpers/postgres';
import { tempDir } from '../../../helpers/tmp';

/** One fresh ledger on one engine. */
export interface TestLedger {
  /** What `--db` would say: an image path or a postgres:// URL (no password). */
  location: string;
  /** The environment a child process needs to open it (the password). */
  env: NodeJS.ProcessEnv;
  /** Opens another engine on the same ledger (another process would). */
  open(options?: OpenEngineOptions): Promise<LedgerEngine>;
  dispose(): Promise<void>;
}

export interface EngineCase {
  name: 'embedded' | 'postgres';
  skip: string | false;
  /** A new, empty, initialised ledger. */
  ledger(): Promise<TestLedger>;
}

export const engineCases: EngineCase[] = [
  {
    name: 'embedded',
    skip: false,
    async ledger() {
      const location = path.join(tempDir(), '.agent-ledger', 'ledger.db');
      const opened: LedgerEngine[] = [];
      return {
        location,
        env: { ...process.env },
        async open(options) {
          const engine = await openEngine(location, options);
          opened.push(engine);
          return engine;
        },
        async dispose() {
          for (const e of opened) await e.close();
        },
      };
    },
  },
  {
    name: 'postgres',
    skip: pgSkip,
    async ledger() {
      const db = await createTestDatabase();
      const opened: LedgerEngine[] = [];
      return {
        location: db.url,
        env: pgEnv,
        async open(options) {
          const engine = await openEngine(db.url, { migrate: true, env: pgEnv, ...options });
          opened.push(engine);
          return engine;
        },
        async dispose() {
          for (const e of opened) await e.close();
          await db.drop();
        },
      };
    },
  },
];

/** Inserts a workflow named `name`; resolves with its id. */
export function addWorkflow(engine: LedgerEngine, name: string): Promise<number> {
  return engine.write((tx) =>
    tx.insert('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', [name, 't', 't']),
  );
}

export async function workflowNames(engine: LedgerEngine): Promise<string[]> {
  return (await engine.read((db) => db.all<{ name: string }>('SELECT name FROM workflows ORDER BY id'))).map(
    (r) => r.name,
  );
}

const fixture = path.join(__dirname, 'engineWriter.fixture.ts');

/** A child process running engineWriter.fixture.ts on `ledger` (see that file for the modes). */
export function spawnWriter(ledger: TestLedger, args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', fixture, ledger.location, ...args], {
    env: ledger.env,
    stdio: 'pipe',
  });
}

/** Lines a child prints, as they come. */
export function lines(child: ChildProcessWithoutNullStreams, onLine: (line: string) => void): Promise<number | null> {
  let buffer = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      onLine(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      if (code !== 0 && code !== null && stderr) console.error(stderr);
      resolve(code);
    }),
  );
}
