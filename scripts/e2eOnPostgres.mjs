// Runs end-to-end test files again with every process of them on a team ledger: a throwaway
// PostgreSQL server (scripts/testPostgres.mjs; Debian's `postgresql`), a fresh database per test
// workspace (test/helpers/testLedger.ts). `npm run test:e2e` runs the web board's file this way
// after the embedded store. Without the server binaries it skips, except in CI.
//   node scripts/e2eOnPostgres.mjs test/e2e/webBoard.e2e.ts
import { spawnSync } from 'node:child_process';
import { findPostgresBin, startTestPostgres, stopTestPostgres } from './testPostgres.mjs';

const files = process.argv.slice(2);
if (!findPostgresBin()) {
  if (process.env.CI) {
    console.error('e2eOnPostgres: no PostgreSQL server binaries (apt-get install -y postgresql)');
    process.exit(1);
  }
  console.log(`e2eOnPostgres: no PostgreSQL server binaries: ${files.join(', ')} not run on PostgreSQL`);
  process.exit(0);
}
const server = await startTestPostgres();
const stop = () => stopTestPostgres(server);
process.on('SIGINT', () => (stop(), process.exit(130)));
process.on('SIGTERM', () => (stop(), process.exit(143)));
let status = 1;
try {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files],
    { stdio: 'inherit', env: { ...process.env, ...server.env, AGENT_LEDGER_TEST_DB: 'postgres' } },
  );
  status = run.status ?? 1;
} finally {
  await stop();
}
process.exit(status);
