// The Explorer's pressure decoration at 10,000 marks (issue 12): what one roll-up costs
// (`services.board.pressure()`: the field read, rolled up to folders once, titles of the tasks),
// against the per-file way (asking the field about each visible file, `pressureOn([file])`),
// measured in the same run. Also the Board's read model with the overlap warning on, at 2,006
// tasks with 200 running tasks that have areas. `--marks 100000`: the Board at 100k marks (each
// mark on its own file); targets: ≤ 50 ms for the roll-up while the field is unchanged, ≤ 100 ms
// for the read after a change (the kept roll-up reads only the changed nodes' marks), against a
// Board that reads every mark again, interleaved in the same run.
// Usage: node --import tsx bench/explorerPressure.bench.ts [--runs N] [--marks N]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServices } from '../src/app/services';
import { bumpClock } from '../src/core/scheduling/stigmergy/stigmergyStore';
import { ensureBasis } from '../src/core/scheduling/stigmergy/stigmergyWeights';
import { createSchedulingServices } from '../src/core/scheduling/schedulingServices';
import type { LedgerEngine } from '../src/core/ports/store';
import { BoardQueries } from '../src/core/board/boardQueries';
import { StigmergyService } from '../src/core/scheduling/stigmergy/stigmergyService';
import { addManyTasks, seedBoard } from '../test/e2e/agentLedger/boardSeed';
import { measure, ms, percentile, printTable, ratio, verdict } from './lib/report';

const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1];
const runs = Number(process.argv.includes('--runs') ? arg('--runs') : 10);
const markCount = Number(process.argv.includes('--marks') ? arg('--marks') : 10_000);
const folders = [
  'src/auth',
  'src/api',
  'src/ui',
  'src/db',
  'docs',
  'test/unit',
  'test/e2e',
  'scripts',
  'lib/core',
  'lib/util',
];

/** 200 running tasks with areas, and `count` marks spread over them (scope and changed files). */
async function addRunningWithMarks(engine: LedgerEngine, count: number, now: number): Promise<number[]> {
  const ids = await engine.write(async (tx) => {
    const out: number[] = [];
    for (let i = 0; i < 200; i++) {
      out.push(
        await tx.insert(
          "INSERT INTO tasks (title, status, areas, assignee, created_at, updated_at) VALUES (?, 'in_progress', ?, ?, 't', 't')",
          [`running ${i}`, JSON.stringify([`${folders[i % folders.length]}/m${i}/**`]), `agent-${i % 50}`],
        ),
      );
    }
    return out;
  });
  await engine.write(async (tx) => {
    for (let i = 0; i < count; i++) {
      const task = ids[i % ids.length];
      // Each mark on its own file (m<task>/f<n>): `count` marks, not fewer merged on one node.
      const node = `${folders[i % folders.length]}/m${i % 200}/f${Math.floor(i / 200)}.ts`;
      await tx.run(
        'INSERT INTO stig_points (node_id, type, intensity, updated_at, task_id) VALUES (?, ?, ?, ?, ?) ON CONFLICT (node_id, type) DO NOTHING',
        [node, `changed:task-${task}`, 1 + (i % 13), now - (i % 1000), task],
      );
    }
    await bumpClock(tx);
  });
  // Weighed and ranked as the first write after the stigmergy-weights migration would.
  const config = createSchedulingServices(engine, () => []).stigmergy.config;
  await engine.write((tx) => ensureBasis(tx, config, now, true));
  return ids;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-ledger-pressure-bench-'));
  const services = await createServices({ workspace: dir });
  try {
    await seedBoard(services.engine);
    await addManyTasks(services.engine, 2_000);
    const running = await addRunningWithMarks(services.engine, markCount, Date.now());
    const stig = services.scheduling.stigmergy;
    const rolled = await services.board.pressure();
    const files = rolled
      .filter((p) => /\.ts$/.test(p.path))
      .slice(0, 50)
      .map((p) => p.path);
    // After a change (the write done before the clock starts), interleaved with the baseline: the
    // same read by a Board that keeps nothing, so every mark is read and rolled up again (what
    // every read after a change did before the change log).
    const afterChange: number[] = [];
    const rebuilt: number[] = [];
    let sameAnswer = true;
    for (let i = -2; i < runs; i++) {
      await stig.markTask(
        running[Math.abs(i) % running.length],
        [`docs/new-${i + 2}.md`, `src/auth/m${Math.abs(i) % 200}/f0.ts`],
        'changed',
      );
      let start = performance.now();
      const kept = await services.board.pressure();
      const tKept = performance.now() - start;
      start = performance.now();
      const fresh = await new BoardQueries(services.engine, new StigmergyService(services.engine, Date.now)).pressure();
      const tFresh = performance.now() - start;
      if (i < 0) continue; // warm-up
      afterChange.push(tKept);
      rebuilt.push(tFresh);
      sameAnswer &&=
        kept.length === fresh.length &&
        kept.every((p, k) => p.path === fresh[k].path && p.tasks.length === fresh[k].tasks.length);
    }
    // Once per half-life the kept roll-up's numbers move to a new moment: every path gets a new
    // object (no mark read). A Board whose clock runs a half-life ahead at each read shows that cost.
    let ahead = 0;
    const moving = new StigmergyService(services.engine, () => Date.now() + ahead);
    const movingBoard = new BoardQueries(services.engine, moving);
    await movingBoard.pressure();
    const newMoment = await measure(
      Math.max(3, Math.floor(runs / 2)),
      async (i) => {
        await stig.markTask(running[Math.abs(i) % running.length], [`docs/moved-${i + 5}.md`], 'changed');
        ahead += moving.config.half_life_ms! + 1;
        return movingBoard.pressure();
      },
      1,
    );
    const unchanged = await measure(runs, () => services.board.pressure(), 1);
    const marksStored = (
      await services.engine.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM stig_points'))
    )?.n;
    const perFile = await measure(
      Math.max(3, Math.floor(runs / 3)),
      async () => {
        for (const f of files) await stig.pressureOn([f]);
      },
      1,
    );
    const rebuild = percentile(rebuilt, 50);
    const vs = (value: number) => `${(value / rebuild).toPrecision(2)}×`;
    printTable(
      `Explorer pressure, ${marksStored} marks stored, 200 running tasks, ${rolled.length} decorated paths (embedded store)`,
      ['way', 'p50 ms', 'p95 ms', 'vs rebuild', 'target', ''],
      [
        [
          'read after a change of 2 marks, roll-up kept (what the Explorer does)',
          ms(percentile(afterChange, 50)),
          ms(percentile(afterChange, 95)),
          vs(percentile(afterChange, 50)),
          '≤ 100 ms',
          verdict(percentile(afterChange, 50) <= 100),
        ],
        [
          'the same, once per half-life (every path gets numbers of the new moment; includes the 1-mark write)',
          ms(percentile(newMoment, 50)),
          ms(percentile(newMoment, 95)),
          vs(percentile(newMoment, 50)),
          '',
          '',
        ],
        [
          'read after a change, every mark read and rolled up again (baseline)',
          ms(rebuild),
          ms(percentile(rebuilt, 95)),
          '1.00×',
          '',
          '',
        ],
        [
          'roll-up once, field unchanged',
          ms(percentile(unchanged, 50)),
          ms(percentile(unchanged, 95)),
          vs(percentile(unchanged, 50)),
          '≤ 50 ms',
          verdict(percentile(unchanged, 50) <= 50),
        ],
        [
          `per file: pressureOn each of ${files.length} visible files`,
          ms(percentile(perFile, 50)),
          ms(percentile(perFile, 95)),
          vs(percentile(perFile, 50)),
          '',
          '',
        ],
      ],
    );
    console.log(
      `kept and rebuilt answers list the same paths and tasks: ${sameAnswer ? 'yes' : 'NO'}; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    const withOverlap = await measure(runs, () => services.board.board(), 1);
    const plain = new BoardQueries(services.engine);
    const withoutField = await measure(runs, () => plain.board(), 1);
    const overlapping = (await services.board.board()).cards.filter((c) => c.overlaps.length > 0).length;
    printTable(
      `board() at ${(await services.board.board()).cards.length} cards, 200+ running (${overlapping} cards warn)`,
      ['read model', 'p50 ms', 'p95 ms', 'vs write scopes only'],
      [
        [
          'overlap from write scopes and marks',
          ms(percentile(withOverlap, 50)),
          ms(percentile(withOverlap, 95)),
          ratio(percentile(withOverlap, 50), percentile(withoutField, 50)),
        ],
        [
          'overlap from write scopes only (baseline)',
          ms(percentile(withoutField, 50)),
          ms(percentile(withoutField, 95)),
          '1.00×',
        ],
      ],
    );
  } finally {
    await services.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
