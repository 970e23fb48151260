// What one changed-files look costs the process that watches a running task (the 5 s look behind
// `changed:task-N` marks: `WorkspaceTruth.watchChanges(...).next()`, 3 git processes, 4 when a file
// changed), as that process's RSS grows: the look's wall time and how long it blocks the event loop
// (a 1 ms ticker's longest and total lateness during the look; spawning a child blocks in
// proportion to the parent's memory). Each RSS level is a child Node process holding that much
// extra JavaScript memory (touched), run in interleaved rounds; the baseline is the level with no
// extra memory, measured in the same run. Measurement only: the look itself lives in src/git.
// Usage: node --import tsx bench/changedMarksLook.bench.ts [--files 2000] [--looks 20] [--rounds 3] [--levels 0,200,400]
// (a level is thousands of small objects ×16: 200 → 3.2 million objects, ~260 MiB more RSS)
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openWorkspaceTruth } from '../src/git/workspaceTruth';
import { ms, percentile, printTable } from './lib/report';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;

async function child(repo: string, ballastMiB: number, looks: number): Promise<void> {
  // Extra memory as the serving process would hold it: many small JavaScript objects, all touched.
  const ballast: { a: number; b: string }[][] = [];
  for (let mb = 0; mb < ballastMiB; mb++)
    ballast.push(Array.from({ length: 16_000 }, (_, i) => ({ a: i, b: `x${i}` })));
  const truth = await openWorkspaceTruth(repo, path.join(repo, '.data'));
  const start = await truth.snapshot('bench');
  const watch = await truth.watchChanges!(start);
  if (!watch) throw new Error('no watch');
  const wall: number[] = [];
  const longest: number[] = [];
  const blocked: number[] = [];
  for (let i = -2; i < looks; i++) {
    writeFileSync(path.join(repo, 'src', `f${(i + 2) % 50}.ts`), `changed ${i}\n`); // one file changed per look: 4 git processes
    let last = performance.now();
    let worst = 0;
    let total = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      const late = now - last - 1;
      if (late > 0) {
        worst = Math.max(worst, late);
        total += late;
      }
      last = now;
    }, 1);
    const t0 = performance.now();
    await watch.next();
    const took = performance.now() - t0;
    clearInterval(ticker);
    if (i < 0) continue;
    wall.push(took);
    longest.push(worst);
    blocked.push(total);
    await new Promise((r) => setTimeout(r, 20));
  }
  await watch.dispose();
  const rss = process.memoryUsage().rss / 1048576;
  process.stdout.write(JSON.stringify({ ballastMiB, rss, wall, longest, blocked, kept: ballast.length }) + '\n');
}

async function main(): Promise<void> {
  if (process.argv.includes('--child'))
    return child(arg('--repo', ''), Number(arg('--ballast', '0')), Number(arg('--looks', '20')));
  const files = Number(arg('--files', '2000'));
  const looks = Number(arg('--looks', '20'));
  const rounds = Number(arg('--rounds', '3'));
  const levels = arg('--levels', '0,200,400').split(',').map(Number);
  const repo = mkdtempSync(path.join(os.tmpdir(), 'agent-ledger-look-bench-'));
  try {
    mkdirSync(path.join(repo, 'src'));
    for (let i = 0; i < files; i++) writeFileSync(path.join(repo, 'src', `f${i}.ts`), `export const v${i} = ${i};\n`);
    const git = (...a: string[]) => execFileSync('git', a, { cwd: repo, stdio: 'ignore' });
    git('init', '-q');
    git('-c', 'user.name=b', '-c', 'user.email=b@example.com', 'add', '-A');
    git('-c', 'user.name=b', '-c', 'user.email=b@example.com', 'commit', '-qm', 'start');
    const results = new Map<number, { rss: number[]; wall: number[]; longest: number[]; blocked: number[] }>();
    for (let round = 0; round < rounds; round++) {
      for (const level of levels) {
        const out = await new Promise<string>((resolve, reject) => {
          const c = spawn(
            process.execPath,
            [
              ...process.execArgv,
              process.argv[1],
              '--child',
              '--repo',
              repo,
              '--ballast',
              String(level),
              '--looks',
              String(looks),
            ],
            { stdio: ['ignore', 'pipe', 'inherit'] },
          );
          let text = '';
          c.stdout.on('data', (d: Buffer) => (text += d.toString()));
          c.on('error', reject);
          c.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`child exited ${code}`))));
        });
        const r = JSON.parse(out.trim().split('\n').pop()!) as {
          rss: number;
          wall: number[];
          longest: number[];
          blocked: number[];
        };
        const acc = results.get(level) ?? { rss: [], wall: [], longest: [], blocked: [] };
        acc.rss.push(r.rss);
        acc.wall.push(...r.wall);
        acc.longest.push(...r.longest);
        acc.blocked.push(...r.blocked);
        results.set(level, acc);
      }
    }
    const base = results.get(levels[0])!;
    const x = (v: number, b: number) => `${(v / b).toFixed(2)}×`;
    printTable(
      `One changed-files look at ${files} tracked files, one file changed per look (${looks} looks × ${rounds} interleaved rounds per level)`,
      [
        'extra JS objects',
        'RSS MiB',
        'look p50 ms',
        'look p95 ms',
        'event loop blocked p50 ms (total)',
        'longest block p50 ms',
        'blocked vs none',
      ],
      [...results].map(([level, r]) => [
        `${level * 16}k`,
        percentile(r.rss, 50).toFixed(0),
        ms(percentile(r.wall, 50)),
        ms(percentile(r.wall, 95)),
        ms(percentile(r.blocked, 50)),
        ms(percentile(r.longest, 50)),
        x(percentile(r.blocked, 50), percentile(base.blocked, 50)),
      ]),
    );
    console.log(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(
          ' ',
        )}; a watched task looks every 5 s: blocked ms per look × watched tasks / 5000 ms is the share of the event loop`,
    );
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

void main();
