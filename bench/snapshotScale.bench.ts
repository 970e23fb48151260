// Git snapshots at scale: start_task (snapshot + pin), complete_task (snapshot + diff + pin) and
// session_start (its first session snapshots) on generated repositories of 20,000 and 100,000
// files, against `git status --porcelain` on the same repository, all interleaved in one run.
// "before" is the former route (a copy of the user's index, `git add --all`, `write-tree`,
// `commit-tree`, `update-ref`), kept callable as `{ route: 'full' }`; "now" is the default.
// Target: each within 1.5× of git status; session_start within 1.5× of its snapshot.
// Each run measures every operation once, in the same order; one more run first warms them up.
// "vs git status" is the ratio of the p50s (the verdict); "paired" is the p50 of each run's own
// ratio against the git status measured in that run (right before the call for complete_task):
// steadier when the machine's load changes during the run.
// Usage: node --import tsx bench/snapshotScale.bench.ts [--sizes 20000,100000] [--runs N (default 15)]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createServices } from '../src/app/services';
import { GitRepo, gitProcessesStarted } from '../src/git/gitRepo';
import { GitWorkspaceTruth } from '../src/git/gitWorkspaceTruth';
import { treeRoutesTaken } from '../src/git/snapshot/workingTree';
import type { Snapshot } from '../src/core/ports/workspaceTruth';
import { generateRepo, git, removeRepo } from './lib/generateRepo';
import { ms, percentile, printTable, ratio, verdict } from './lib/report';

const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1];
const sizes = (process.argv.includes('--sizes') ? arg('--sizes') : '20000,100000').split(',').map(Number);
const runs = Number(process.argv.includes('--runs') ? arg('--runs') : 15);

/** Samples (ms) and git processes started, per operation. */
class Samples {
  readonly times = new Map<string, number[]>();
  readonly processes = new Map<string, number[]>();
  async time<T>(name: string, fn: () => Promise<T> | T, record = true): Promise<T> {
    const started = gitProcessesStarted();
    const t0 = performance.now();
    const value = await fn();
    if (record) {
      (this.times.get(name) ?? this.times.set(name, []).get(name)!).push(performance.now() - t0);
      (this.processes.get(name) ?? this.processes.set(name, []).get(name)!).push(gitProcessesStarted() - started);
    }
    return value;
  }
  p50(name: string): number {
    return percentile(this.times.get(name) ?? [], 50);
  }
  /** p50 of `name`'s samples each divided by `baseline`'s sample of the same run. */
  paired(name: string, baseline: string): number {
    const base = this.times.get(baseline) ?? [];
    return percentile(
      (this.times.get(name) ?? []).map((t, i) => t / base[i]),
      50,
    );
  }
  procs(name: string): string {
    const list = this.processes.get(name) ?? [];
    return list.length ? String(Math.round(percentile(list, 50))) : '-';
  }
}

async function main(): Promise<void> {
  console.error(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores`,
  );
  const rows: (string | number)[][] = [];
  const breakdown: (string | number)[][] = [];
  const calls: (string | number)[][] = [];
  for (const size of sizes) {
    const t0 = performance.now();
    const repo = generateRepo(size);
    console.error(`generated ${size} files in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const gitRepo = await GitRepo.open(repo);
    const now = new GitWorkspaceTruth(gitRepo);
    const before = new GitWorkspaceTruth(gitRepo, undefined, { route: 'full' });
    const s = new Samples();
    git(repo, 'status', '--porcelain'); // warm the file system cache like a user's repo

    // A clean work tree (nothing but HEAD), before the ledger exists.
    await now.snapshot('warm');
    for (let i = 0; i < runs; i++) {
      await s.time('status-clean', () => git(repo, 'status', '--porcelain'));
      await s.time('clean-before', () => before.snapshot('clean'));
      await s.time('clean-now', () => now.snapshot('clean'));
    }

    // A realistic working state: some edits and new files before and during tasks.
    for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(repo, `scratch${i}.txt`), `${i}\n`);
    const services = await createServices({ workspace: repo });
    const { workflow_id } = await services.workflows.start({ name: 'bench' });
    const truth = await services.truth();
    await services.tracking.startTask({ workflow_id, name: 'warm', goal: 'g' });
    const headSha = git(repo, 'rev-parse', 'HEAD').trim();
    const routesBefore = treeRoutesTaken();
    // Run -1 warms every operation up and records nothing.
    for (let run = -1; run < runs; run++) {
      const record = run >= 0;
      const i = run + 1;
      await s.time('status', () => git(repo, 'status', '--porcelain'), record);
      const snap = await s.time(
        'start-before',
        async () => {
          const snapshot = await before.snapshot('before');
          await before.keep(snapshot, `bench-before-${i}`);
          return snapshot;
        },
        record,
      );
      const started = await s.time(
        'start-now',
        () => services.tracking.startTask({ workflow_id, name: 't', goal: 'g' }),
        record,
      );
      // The same git work outside the call (snapshot + pin), to tell the call's own cost from it.
      await s.time('start-git-now', async () => truth.keep(await truth.snapshot('start'), `bench-now-${i}`), record);
      fs.writeFileSync(path.join(repo, 'src', 'm0', 'd0', `f${i}.ts`), `changed ${i}\n`);
      const startSnapshot: Snapshot = { type: 'git', id: started.snapshot_id, head: headSha, takenAt: '' };
      await s.time(
        'complete-git-now',
        async () => truth.keep((await truth.changesSince(startSnapshot)).to, `bench-now-${i}-end`),
        record,
      );
      await s.time(
        'complete-before',
        async () => {
          const changes = await before.changesSince(snap);
          await before.keep(changes.to, `bench-before-${i}-end`);
        },
        record,
      );
      // git status again right before the call: its pair for the paired ratio.
      await s.time('status-complete', () => git(repo, 'status', '--porcelain'), record);
      await s.time(
        'complete-now',
        () =>
          services.tracking.completeTask({ task_id: started.task_id, status: 'success', outcome: { summary: 's' } }),
        record,
      );
      // session_start on a task that has no snapshot yet: the first session takes it.
      const created = await services.tasks.create({ title: `s${i}`, priority: 'medium', type: 'task' });
      await s.time('agent-lookup', () => services.agents.get('coder'), record);
      await s.time('snapshot-now', () => truth.snapshot('alone'), record);
      await s.time(
        'session-start',
        () => services.sessions.start({ taskId: created.id, agent: 'coder', allowConcurrent: false }),
        record,
      );
    }
    const routes = treeRoutesTaken();
    const routeCounts = (Object.keys(routes) as (keyof typeof routes)[])
      .map((r) => `${r} ${routes[r] - routesBefore[r]}`)
      .join(', ');
    console.error(
      `${size} files: working trees built by route while changed (full = the ${2 * runs} "before" rows): ${routeCounts}`,
    );
    const base = s.p50('status');
    const row = (what: string, key: string, baselineKey = 'status', target = true, pairKey = baselineKey) => {
      const p = s.p50(key);
      const baseline = s.p50(baselineKey);
      rows.push([
        size,
        what,
        ms(p),
        ratio(p, baseline),
        `${s.paired(key, pairKey).toFixed(2)}×`,
        s.procs(key),
        target ? verdict(p <= 1.5 * baseline) : '',
      ]);
    };
    rows.push([size, 'git status --porcelain (clean work tree)', ms(s.p50('status-clean')), '1.00×', '', '1', '']);
    row('snapshot of a clean work tree, before', 'clean-before', 'status-clean', false);
    row('snapshot of a clean work tree, now (HEAD itself)', 'clean-now', 'status-clean');
    rows.push([size, 'git status --porcelain (20 new files + edits)', ms(base), '1.00×', '', '1', '']);
    row('start_task git work (snapshot + pin), before', 'start-before', 'status', false);
    row('start_task, whole call, now', 'start-now');
    row('complete_task git work (snapshot + diff + pin), before', 'complete-before', 'status', false);
    row('complete_task, whole call, now', 'complete-now', 'status', true, 'status-complete');
    const snapshotAlone = s.p50('snapshot-now');
    row('snapshot alone, now', 'snapshot-now');
    const session = s.p50('session-start');
    rows.push([
      size,
      'session_start (first session: snapshot), now',
      ms(session),
      `${ratio(session, snapshotAlone)} of its snapshot`,
      `${s.paired('session-start', 'snapshot-now').toFixed(2)}×`,
      s.procs('session-start'),
      verdict(session <= 1.5 * snapshotAlone),
    ]);
    breakdown.push([
      size,
      ms(session),
      ms(s.p50('agent-lookup')),
      ms(snapshotAlone),
      ms(session - s.p50('agent-lookup') - snapshotAlone),
    ]);
    calls.push([
      size,
      'start_task',
      ms(s.p50('start-now')),
      ms(s.p50('start-git-now')),
      ms(s.p50('start-now') - s.p50('start-git-now')),
    ]);
    calls.push([
      size,
      'complete_task',
      ms(s.p50('complete-now')),
      ms(s.p50('complete-git-now')),
      ms(s.p50('complete-now') - s.p50('complete-git-now')),
    ]);
    services.dispose();
    removeRepo(repo);
    // Each size as soon as it is done (a 100,000-file run takes minutes).
    printTable(
      `Snapshots vs git status (p50 of ${runs} interleaved runs, ms; target ≤ 1.5×)`,
      ['files', 'operation', 'p50', 'vs git status', 'paired', 'git processes', 'target'],
      rows,
    );
    printTable(
      'Where session_start goes (p50, ms)',
      ['files', 'session_start', 'agent definition lookup', 'snapshot', 'rest: reads, write, pin'],
      breakdown,
    );
    printTable(
      'Where start_task / complete_task go (p50, ms)',
      ['files', 'call', 'whole call', 'its git work alone (snapshot [+ diff] + pin)', 'rest: reads, write'],
      calls,
    );
    rows.length = 0;
    breakdown.length = 0;
    calls.length = 0;
  }
  console.error(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}

void main();
