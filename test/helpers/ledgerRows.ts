import * as path from 'node:path';
import { openEngine } from '../../src/store/openEngine';
import type { AsyncSqlReader } from '../../src/core/ports/store';
import { ledgerEnv } from './testLedger';

/**
 * Reads rows of a workspace's ledger directly (the embedded store, or the workspace's PostgreSQL
 * database on `npm run test:pg`): what a test checks that no tool shows, such as the token an
 * event records. The servers under test keep running; this is one more reader.
 */
export async function readLedger<T>(workspace: string, read: (db: AsyncSqlReader) => Promise<T>): Promise<T> {
  const env = ledgerEnv(workspace);
  const engine = await openEngine(env.AGENT_LEDGER_DB ?? path.join(workspace, '.agent-ledger', 'ledger.db'), {
    env,
    readonly: true,
  });
  try {
    return await engine.read(read);
  } finally {
    await engine.close();
  }
}
