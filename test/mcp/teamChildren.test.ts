// A server started with `--db postgres://…` (the URL on its command line, not in its
// environment) gives its child runtimes the same database: the URL and the password travel in
// the child's environment by name, never as an argument.
import { test } from 'node:test';
import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import { createTestDatabase, pgPassword, pgSkip } from '../helpers/postgres';
import { tempRepo } from '../helpers/tmp';
import { initLedgerDb } from '../../src/store/admin/dbAdmin';

test(
  'child runtimes of a server started with --db <url> reach its database by environment',
  { skip: pgSkip, timeout: 120_000 },
  async () => {
    const db = await createTestDatabase();
    try {
      await initLedgerDb(db.url, { env: { AGENT_LEDGER_DB_PASSWORD: pgPassword } });
      const repo = tempRepo();
      // Nothing about the database in the server's environment but the password.
      const env = {
        ...process.env,
        AGENT_LEDGER_DB: undefined,
        AGENT_LEDGER_DB_PASSWORD: pgPassword,
        PGPASSWORD: undefined,
      };
      const c = await connect(repo, ['--db', db.url, '--enable-orchestrator', '--child-program', process.execPath], {
        env,
      });
      try {
        // The probe compares digests: the password itself never goes into its arguments.
        const digest = createHash('sha256').update(pgPassword!).digest('hex');
        const probe = `const { createHash } = require('node:crypto');
const same = process.env.AGENT_LEDGER_DB === ${JSON.stringify(db.url)};
const pw = createHash('sha256').update(process.env.AGENT_LEDGER_DB_PASSWORD || '').digest('hex') === ${JSON.stringify(digest)};
console.log('db:' + same + ' password:' + pw);`;
        await c.call('child_create', { child_id: 'probe', command: process.execPath, args: ['-e', probe] });
        const deadline = Date.now() + 30_000;
        let line: string | undefined;
        while (!line && Date.now() < deadline) {
          const { logs } = await c.call<{ logs: { message: string }[] }>('child_logs', {
            child_id: 'probe',
            wait_ms: 1_000,
            limit: 50,
          });
          line = logs.map((l) => l.message).find((m) => m.startsWith('db:'));
        }
        assert.equal(line, 'db:true password:true');
      } finally {
        await c.close();
      }
    } finally {
      await db.drop();
    }
  },
);
