// The PostgreSQL server a benchmark compares against: the one the environment names
// (AGENT_LEDGER_TEST_PG_URL, as under scripts/runTests.mjs), else a private one started for the
// run from Debian's postgresql binaries (scripts/testPostgres.mjs), else none (the bench says so).
// @ts-expect-error: a plain .mjs script without types
import { findPostgresBin, startTestPostgres, stopTestPostgres } from '../../scripts/testPostgres.mjs';

export interface BenchPostgres {
  /** Stops the server this run started (nothing when the environment named one). */
  stop(): void;
}

/** null when there is no server to run against; the reason is printed. */
export async function benchPostgres(): Promise<BenchPostgres | null> {
  if (process.env.AGENT_LEDGER_TEST_PG_URL) return { stop: () => undefined };
  if (!findPostgresBin()) {
    console.log('skipped: PostgreSQL server binaries not found (apt-get install -y postgresql)');
    return null;
  }
  const server: { env: Record<string, string> } = await startTestPostgres();
  Object.assign(process.env, server.env);
  return { stop: () => stopTestPostgres(server) };
}
