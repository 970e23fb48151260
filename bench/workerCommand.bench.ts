// worker_command on a generated 20,000-file repository over stdio (the real SDK client against
// dist/cli.js): a new worktree (full, and sparse with an exclude scope), and a reused one —
// against `git worktree add` of the same repository measured in the same run, the floor any
// worktree-per-task design pays. Target: a new worktree within 1.5× of git worktree add.
// Usage: npm run build && node --import tsx bench/workerCommand.bench.ts [--files N] [--runs N]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connect } from '../test/helpers/mcpClient';
import { generateRepo, git, removeRepo } from './lib/generateRepo';
import { bytes, measure, ms, percentile, printTable, ratio, verdict } from './lib/report';

const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1];
const files = Number(process.argv.includes('--files') ? arg('--files') : 20_000);
const runs = Number(process.argv.includes('--runs') ? arg('--runs') : 5);

interface Worker {
  sessionId: number;
  task: { id: number };
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const repo = generateRepo(files);
  console.error(`generated ${files} files in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const c = await connect(repo);
  await c.call('agent_list'); // first use writes the default agents
  fs.writeFileSync(
    path.join(repo, '.agent-ledger/agents/sparse.yaml'),
    'name: sparse\nclient: codex\nscope:\n  read: ["**/*"]\n  write: ["src/**"]\n  exclude: ["**/*.env", "src/m1/**"]\n',
  );
  git(repo, 'status', '--porcelain'); // warm the file system cache like a user's repository

  const scratch = fs.mkdtempSync(path.join(repo, '..', 'wt-baseline-'));
  const newTask = async () => (await c.call<{ id: number }>('task_create', { title: 'bench' })).id;
  // Interleaved, one of each per round: every 78 MiB checkout leaves writeback behind, which
  // would otherwise burden whichever kind ran last.
  const rawAdd: number[] = [];
  const full: number[] = [];
  const sparse: number[] = [];
  const created: number[] = [];
  const timed = async (into: number[], fn: () => Promise<unknown> | unknown) => {
    const start = performance.now();
    await fn();
    into.push(performance.now() - start);
  };
  for (let i = 0; i < runs; i++) {
    await timed(rawAdd, () =>
      git(repo, 'worktree', 'add', '-q', '-b', `baseline-${i}`, path.join(scratch, `w${i}`), 'HEAD'),
    );
    const fullTask = await newTask();
    await timed(full, async () => created.push((await c.call<Worker>('worker_command', { taskId: fullTask })).task.id));
    const sparseTask = await newTask();
    await timed(sparse, async () =>
      created.push((await c.call<Worker>('worker_command', { taskId: sparseTask, agent: 'sparse' })).task.id),
    );
  }
  const base = percentile(rawAdd, 50);
  let next = 0;
  const reuse = await measure(
    Math.min(runs, created.length),
    () => c.call('worker_command', { taskId: created[next++], agent: 'reviewer' }),
    0,
  );
  const size =
    (
      await c.call<{ removed: { freedBytes: number }[] }>('worktree_cleanup', {
        taskId: created[0],
        force: true,
        dryRun: true,
      })
    ).removed[0]?.freedBytes ?? 0;

  const rows: (string | number)[][] = [
    [`git worktree add (baseline)`, ms(base), ms(percentile(rawAdd, 95)), '1.00×', ''],
  ];
  const row = (name: string, samples: number[], target?: number) => {
    const p50 = percentile(samples, 50);
    rows.push([
      name,
      ms(p50),
      ms(percentile(samples, 95)),
      ratio(p50, base),
      target === undefined ? '' : verdict(p50 <= target * base),
    ]);
  };
  row('worker_command, new worktree', full, 1.5);
  row('worker_command, new sparse worktree', sparse, 1.5);
  row('worker_command, reused worktree', reuse, 0.5);
  await c.close();
  printTable(
    `worker_command on ${files} files, p50 of ${runs} runs (ms; a worktree is ${bytes(size)} on disk; targets: new ≤ 1.5×, reused ≤ 0.5× git worktree add)`,
    ['call', 'p50', 'p95', 'vs git worktree add', 'target'],
    rows,
  );
  fs.rmSync(scratch, { recursive: true, force: true });
  removeRepo(repo);
}

void main();
