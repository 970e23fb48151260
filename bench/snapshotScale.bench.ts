// start_task (snapshot) and complete_task (diff) on generated repositories of 20,000 and
// 100,000 files, against `git status --porcelain` on the same repository in the same run.
// Target: each within 1.5× of git status.
// Usage: node --import tsx bench/snapshotScale.bench.ts [--sizes 20000,100000] [--runs N]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createServices } from '../src/services';
import { generateRepo, git, removeRepo } from './lib/generateRepo';
import { measure, ms, percentile, printTable, ratio, verdict } from './lib/report';

const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1];
const sizes = (process.argv.includes('--sizes') ? arg('--sizes') : '20000,100000').split(',').map(Number);
const runs = Number(process.argv.includes('--runs') ? arg('--runs') : 7);

async function main(): Promise<void> {
  const rows: (string | number)[][] = [];
  for (const size of sizes) {
    const t0 = performance.now();
    const repo = generateRepo(size);
    console.error(`generated ${size} files in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    // A realistic working state: some edits and new files before and during tasks.
    for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(repo, `scratch${i}.txt`), `${i}\n`);
    const services = await createServices({ workspace: repo });
    const { workflow_id } = await services.workflows.start({ name: 'bench' });
    git(repo, 'status', '--porcelain'); // warm the file system cache like a user's repo

    const status = await measure(runs, () => git(repo, 'status', '--porcelain'));
    const ids: string[] = [];
    const start = await measure(runs, async () => ids.push((await services.tracking.startTask({ workflow_id, name: 't', goal: 'g' })).task_id), 1);
    let n = 0;
    const complete = await measure(
      ids.length,
      async () => {
        fs.writeFileSync(path.join(repo, 'src', 'm0', 'd0', `f${n}.ts`), `changed ${n}\n`);
        await services.tracking.completeTask({ task_id: ids[n++], status: 'success', outcome: { summary: 's' } });
      },
      0,
    );
    const base = percentile(status, 50);
    rows.push([size, 'git status --porcelain', ms(base), '1.00×', '']);
    rows.push([size, 'start_task (snapshot)', ms(percentile(start, 50)), ratio(percentile(start, 50), base), verdict(percentile(start, 50) <= 1.5 * base)]);
    rows.push([size, 'complete_task (diff)', ms(percentile(complete, 50)), ratio(percentile(complete, 50), base), verdict(percentile(complete, 50) <= 1.5 * base)]);
    services.dispose();
    removeRepo(repo);
  }
  printTable(`Snapshot and completion vs git status (p50 of ${runs} runs, ms; target ≤ 1.5×)`, ['files', 'operation', 'p50', 'vs git status', 'target'], rows);
}

void main();
