// Runs every benchmark in bench/ one after another and prints their tables.
// Usage: npm run bench [-- --only NAME] (builds dist/ first; MCP benchmarks use dist/cli.js)
//        npm run bench -- --peers [options of bench/peers/runner.ts]: only the opt-in comparison
//        with Task Master AI and Shrimp (installs them into bench/.peers/ the first time)
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';

if (process.argv.includes('--peers')) {
  const args = process.argv.slice(2).filter((a) => a !== '--peers');
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'peers', 'runner.ts'), ...args], {
    stdio: 'inherit',
  });
  process.exit(r.status ?? 1);
}

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const benches = readdirSync(__dirname)
  .filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only)))
  .sort();
let failed = 0;
for (const file of benches) {
  console.log(`\n## ${file}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, file)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
