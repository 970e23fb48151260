// `npm run bench -- --peers`: Agent Ledger beside Task Master AI and Shrimp Task Manager, in one
// run, on one machine, interleaved. Installs the pinned peers into bench/.peers/ the first time.
// Options: --sizes 1000,5000  --runs 20  --spawns 5  --writers 2,4  --per-writer 25
//          --kill-trials 3  --base 1000 (tasks in each durability project)  --servers ours,taskmaster,shrimp
import * as os from 'node:os';
import type { ServerAdapter } from './adapter';
import { operationLabels, operations } from './adapter';
import { agentLedger } from './agentLedger';
import type { Contender, SizeFigures } from './phases';
import { median, operationRounds, seedTo, spawnTrials } from './phases';
import type { Cell, FigureRow } from './report';
import { figuresTable, mappingTable, writeReport } from './report';
import { killAll } from './session';
import { shrimp } from './shrimp';
import { taskMaster } from './taskMaster';
import type { KillCount, WriteCount } from './trials';
import { concurrentWriters, killTrial } from './trials';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const numbers = (text: string) =>
  text
    .split(',')
    .map(Number)
    .filter((n) => n > 0);
const opts = {
  sizes: numbers(arg('--sizes', '1000,5000')),
  runs: Number(arg('--runs', '20')),
  spawns: Number(arg('--spawns', '5')),
  writers: numbers(arg('--writers', '2,4')),
  perWriter: Number(arg('--per-writer', '25')),
  killTrials: Number(arg('--kill-trials', '3')),
  base: Number(arg('--base', '1000')),
  servers: arg('--servers', 'ours,taskmaster,shrimp').split(','),
};

const log = (line: string) => console.log(line);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

/** Sets up a store of `tasks` tasks for a durability stage: a fresh project, seeded through the server. */
async function stageProject(c: Contender, tasks: number): Promise<string> {
  const stage: Contender = { adapter: c.adapter, project: await c.adapter.newProject(), tasks: 0, statusUsed: 0 };
  const figures = new Map<Contender, SizeFigures>([[stage, { spawnMs: [], firstWriteMs: [], opMs: {}, opErrors: {} }]]);
  await seedTo([stage], tasks, figures, () => undefined);
  if (stage.failure) throw new Error(stage.failure);
  return stage.project;
}

function countCell(count: WriteCount | undefined, failure?: string): Cell {
  if (failure) return { text: failure.length > 40 ? `${failure.slice(0, 40)}…` : failure };
  if (!count) return undefined;
  const extra = [count.failed ? `${count.failed} failed` : '', count.unreadable ? 'store unreadable' : '']
    .filter(Boolean)
    .join(', ');
  return { text: `${count.lost} lost / ${count.doubled} doubled of ${count.acked}${extra ? ` (${extra})` : ''}` };
}

function unreadableNote(c: Contender, stage: string, error: string): string {
  return `${c.adapter.name}, ${stage}: a fresh server could not read the store back (${error.split('\n')[0].slice(0, 100)}): every task in it is gone, not only this stage's writes.`;
}

function sum(counts: KillCount[]): WriteCount {
  const total: WriteCount = { acked: 0, lost: 0, doubled: 0, failed: 0 };
  for (const c of counts) {
    total.acked += c.acked;
    total.lost += c.lost;
    total.doubled += c.doubled;
    total.failed += c.failed;
    if (c.unreadable) total.unreadable = c.unreadable;
  }
  return total;
}

async function main(): Promise<void> {
  const started = new Date();
  const header = `Peer benchmark, ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC — ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average at start ${load()} (1 / 5 / 15 min)`;
  log(`${header}\noptions: ${JSON.stringify(opts)}`);
  const adapters = [taskMaster, shrimp, agentLedger].filter((a) => opts.servers.includes(a.key));
  const contenders: Contender[] = [];
  for (const adapter of adapters) {
    const c: Contender = { adapter, project: '', tasks: 0, statusUsed: 0 };
    try {
      await adapter.prepare();
      c.project = await adapter.newProject();
    } catch (e) {
      c.failure = `failed to install or set up: ${(e as Error).message.slice(0, 300)}`;
      log(`${adapter.name}: ${c.failure}`);
    }
    contenders.push(c);
  }
  const rows: FigureRow[] = [];
  const notes = new Set<string>();
  const cellsOf = (pick: (c: Contender) => Cell) =>
    Object.fromEntries(contenders.map((c) => [c.adapter.key, c.failure && !pick(c) ? { text: 'failed' } : pick(c)]));
  for (const size of opts.sizes) {
    const figures = new Map<Contender, SizeFigures>(
      contenders.map((c) => [c, { spawnMs: [], firstWriteMs: [], opMs: {}, opErrors: {} }]),
    );
    log(`\n${size} tasks — seeding (load ${load()})`);
    await seedTo(contenders, size, figures, log);
    log(`${size} tasks — spawn trials (load ${load()})`);
    await spawnTrials(contenders, opts.spawns, figures);
    log(`${size} tasks — operations, ${opts.runs} rounds (load ${load()})`);
    await operationRounds(contenders, opts.runs, figures);
    const f = (c: Contender) => figures.get(c)!;
    const timed =
      (pick: (x: SizeFigures) => number | undefined, unit: 'ms' | 's' | 'bytes' = 'ms'): ((c: Contender) => Cell) =>
      (c) => {
        const v = pick(f(c));
        return v === undefined || !Number.isFinite(v)
          ? f(c).error
            ? { text: 'failed' }
            : undefined
          : { value: v, unit };
      };
    const tag = `${size.toLocaleString('en')}`;
    rows.push({
      figure: `seed to ${tag} tasks (through its tools)`,
      tasks: tag,
      ratio: true,
      cells: cellsOf((c) => (f(c).seedMs ? { value: f(c).seedMs! / 1000, unit: 's' } : undefined)),
    });
    rows.push({
      figure: `spawn → tools listed (median of ${opts.spawns})`,
      tasks: tag,
      ratio: true,
      cells: cellsOf(timed((x) => median(x.spawnMs))),
    });
    rows.push({
      figure: 'spawn → first acknowledged write',
      tasks: tag,
      ratio: true,
      cells: cellsOf(timed((x) => median(x.firstWriteMs))),
    });
    for (const op of operations) {
      rows.push({
        figure: `${operationLabels[op]} (p50 of ${opts.runs})`,
        tasks: tag,
        ratio: true,
        cells: cellsOf((c) => {
          const error = f(c).opErrors[op];
          if (error) return { text: `error: ${error.slice(0, 40)}` };
          if (op !== 'create' && !c.adapter.run[op]) return undefined;
          return timed((x) => median(x.opMs[op]))(c);
        }),
      });
    }
    rows.push({
      figure: 'RSS idle (after tools listed + 1 s)',
      tasks: tag,
      ratio: true,
      cells: cellsOf(timed((x) => x.rssIdle, 'bytes')),
    });
    rows.push({
      figure: 'RSS after the calls',
      tasks: tag,
      ratio: true,
      cells: cellsOf(timed((x) => x.rssAfter, 'bytes')),
    });
    for (const c of contenders) {
      if (f(c).error) log(`  ${c.adapter.name}: ${f(c).error}`);
      if (f(c).stray)
        notes.add(
          `${c.adapter.name} writes non-protocol text on stdout (the client reports: ${f(c).stray!.slice(0, 90)}).`,
        );
      for (const [op, error] of Object.entries(f(c).opErrors))
        notes.add(`${c.adapter.name}, ${op} at ${tag} tasks: ${error}`);
    }
  }

  const durability: { figure: string; cells: Partial<Record<ServerAdapter['key'], Cell>> }[] = [];
  for (const writers of opts.writers) {
    log(`\n${writers} concurrent writers × ${opts.perWriter} creates on ${opts.base} tasks (load ${load()})`);
    const cells: Partial<Record<ServerAdapter['key'], Cell>> = {};
    for (const c of contenders) {
      if (c.failure?.startsWith('failed to install')) continue;
      try {
        const project = await stageProject(c, opts.base);
        const count = await concurrentWriters(c.adapter, project, writers, opts.perWriter, `cw${writers}`);
        cells[c.adapter.key] = countCell(count);
        log(`  ${c.adapter.name}: ${JSON.stringify(count)}`);
        if (count.unreadable) notes.add(unreadableNote(c, `${writers} writers`, count.unreadable));
        if (count.failed)
          notes.add(
            `${c.adapter.name}, ${writers} writers: ${count.failed} creates not acknowledged, e.g. ${count.firstError?.slice(0, 120).replace(/\s+/g, ' ')}`,
          );
      } catch (e) {
        cells[c.adapter.key] = countCell(undefined, `failed: ${(e as Error).message}`);
        log(`  ${c.adapter.name}: ${(e as Error).message}`);
      }
    }
    durability.push({
      figure: `${writers} concurrent writer processes × ${opts.perWriter} creates: lost / doubled of acknowledged`,
      cells,
    });
  }
  log(`\nkill -9 trials × ${opts.killTrials} on ${opts.base} tasks (load ${load()})`);
  const kills = new Map<Contender, KillCount[]>();
  const killProjects = new Map<Contender, string>();
  for (const c of contenders) {
    if (c.failure?.startsWith('failed to install')) continue;
    try {
      killProjects.set(c, await stageProject(c, opts.base));
      kills.set(c, []);
    } catch (e) {
      log(`  ${c.adapter.name}: ${(e as Error).message}`);
    }
  }
  for (let t = 0; t < opts.killTrials; t++) {
    const alive = contenders.filter((c) => killProjects.has(c));
    for (let i = 0; i < alive.length; i++) {
      const c = alive[(i + t) % alive.length];
      const killAfter = 700 + Math.round(Math.random() * 1800);
      try {
        const result = await killTrial(c.adapter, killProjects.get(c)!, killAfter, `kill${t}`);
        kills.get(c)!.push(result);
        log(`  ${c.adapter.name} trial ${t + 1} (kill after ${killAfter} ms): ${JSON.stringify(result)}`);
        if (result.unreadable) notes.add(unreadableNote(c, `kill -9 trial ${t + 1}`, result.unreadable));
        if (result.restartError)
          notes.add(
            `${c.adapter.name}, kill -9 trial ${t + 1}: the restarted server refused the first write: ${result.restartError.split('\n')[0].slice(0, 160)}`,
          );
      } catch (e) {
        log(`  ${c.adapter.name} trial ${t + 1}: ${(e as Error).message}`);
      }
    }
  }
  durability.push({
    figure: `kill -9 mid-write × ${opts.killTrials}: lost / doubled of acknowledged`,
    cells: Object.fromEntries(
      contenders.map((c) => [
        c.adapter.key,
        kills.get(c)?.length ? countCell(sum(kills.get(c)!)) : { text: 'not run' },
      ]),
    ),
  });
  rows.push({
    figure: 'restarted after kill -9 → first acknowledged write (median)',
    tasks: `${opts.base.toLocaleString('en')}+`,
    ratio: true,
    cells: Object.fromEntries(
      contenders.map((c) => [
        c.adapter.key,
        kills.get(c)?.length
          ? {
              value: median(
                kills
                  .get(c)!
                  .map((k) => k.restartToWriteMs)
                  .filter(Number.isFinite),
              ),
              unit: 'ms' as const,
            }
          : undefined,
      ]),
    ),
  });
  for (const d of durability)
    rows.push({ figure: d.figure, tasks: `${opts.base.toLocaleString('en')}+`, ratio: false, cells: d.cells });

  const failures = contenders.filter((c) => c.failure).map((c) => `- ${c.adapter.name}: ${c.failure}`);
  const markdown = [
    `## Agent Ledger beside its peers`,
    '',
    header,
    `Finished ${new Date().toISOString().slice(11, 16)} UTC, load average at end ${load()}. Command: \`${['npm run bench -- --peers', ...process.argv.slice(2)].join(' ')}\``,
    '',
    figuresTable(adapters, rows),
    '',
    'Times are medians (p50) over stdio with the real MCP SDK client; "—" = no equivalent tool. RSS is VmRSS of the server process.',
    `"${opts.base.toLocaleString('en')}+": each durability stage runs on a fresh store seeded with ${opts.base.toLocaleString('en')} tasks through the server's tools; "lost" = acknowledged creates a fresh server no longer lists.`,
    ...(failures.length ? ['', 'Servers that could not take part:', ...failures] : []),
    ...(notes.size ? ['', 'Seen during the run:', ...[...notes].map((n) => `- ${n}`)] : []),
    '',
    '### Which tool each operation used',
    '',
    mappingTable(adapters),
  ].join('\n');
  log(`\n${markdown}`);
  log(`\nwritten to ${writeReport(markdown, started)}`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killAll();
    process.exit(130);
  });
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(killAll);
