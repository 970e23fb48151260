// The scheduling tools' services over the store (the embedded engine, a real sql.js image and
// journal), at the sizes issue 12 names:
//  - award latency: cnp_announce that awards at once, with 50 agents, 1,000 open tasks each with
//    an open call, 100 running tasks; with an empty field and with 10,000 marks;
//  - stig_snapshot over 100,000 marks (default page and largest page), one stig_mark into them.
// The tools aggregate in SQL (stigmergyQueries.ts); each SQL row is set against the in-memory
// field the tools used before (every live mark loaded, faded and summed in TypeScript), measured
// in the same run, with the ratio after / before; a call's bounds also against the LIKE scan that
// found glob and bare-word marks before stig_nodes.loose (v15).
// Usage: npm run bench -- --only schedulingStore   (or node --import tsx bench/schedulingStore.bench.ts [--runs N])
import * as path from 'node:path';
import { rmSync } from 'node:fs';
import { openEngine } from '../src/store/openEngine';
import { createSchedulingServices } from '../src/core/scheduling/schedulingServices';
import type { BidderDefinition } from '../src/core/scheduling/contractNet/contractNetService';
import { bumpClock } from '../src/core/scheduling/stigmergy/stigmergyStore';
import { ensureBasis } from '../src/core/scheduling/stigmergy/stigmergyWeights';
import type { LedgerEngine } from '../src/core/ports/store';
import { tempDir } from '../test/helpers/tmp';
import { snapshot } from '../src/core/scheduling/stigmergy/stigmergySnapshot';
import { areaBounds, rollUpToFolders } from '../src/core/scheduling/stigmergy/stigmergyAreas';
import { fieldBounds } from '../src/core/scheduling/stigmergy/stigmergySnapshot';
import { measure, ms, percentile, printTable, ratio, verdict } from './lib/report';
import assert from 'node:assert/strict';
import { createField } from '../src/core/scheduling/stigmergy/stigmergyField';
import { areaCandidates, liveMarks } from '../src/core/scheduling/stigmergy/stigmergyQueries';

const runs = Number(process.argv.includes('--runs') ? process.argv[process.argv.indexOf('--runs') + 1] : 20);
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

const agents: BidderDefinition[] = Array.from({ length: 50 }, (_, i) => ({
  name: `agent-${i}`,
  scope: {
    write: i % 5 === 0 ? ['**'] : [`${folders[i % folders.length]}/**`],
    exclude: i % 7 === 0 ? ['**/*.env'] : [],
  },
  config: { tags: [`skill-${i % 6}`], base_cost: 50 + (i % 9) * 10 },
}));

async function addTasks(engine: LedgerEngine, count: number, status: string, offset: number): Promise<number[]> {
  return engine.write(async (tx) => {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const areas = JSON.stringify([`${folders[(offset + i) % folders.length]}/m${offset + i}/**`]);
      ids.push(
        await tx.insert(
          'INSERT INTO tasks (title, status, areas, assignee, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
          [`t${offset + i}`, status, areas, status === 'in_progress' ? `agent-${i % 50}` : null, 't', 't'],
        ),
      );
    }
    return ids;
  });
}

/** Marks written straight into the table, then weighed and ranked as a first write after the v14 migration would. */
async function addMarks(engine: LedgerEngine, count: number, start: number): Promise<number> {
  for (let from = 0; from < count; from += 5000) {
    await engine.write(async (tx) => {
      for (let i = from; i < Math.min(count, from + 5000); i++) {
        const node = `${folders[i % folders.length]}/m${Math.floor(i / 40) % 500}/f${i % 97}.ts`;
        await tx.run(
          'INSERT INTO stig_points (node_id, type, intensity, updated_at, task_id) VALUES (?, ?, ?, ?, NULL) ON CONFLICT (node_id, type) DO NOTHING',
          [node, `scope:area-${i % 400}`, 1 + (i % 13), start - (i % 1000)],
        );
      }
      await bumpClock(tx);
    });
  }
  const config = createSchedulingServices(engine, () => []).stigmergy.config;
  const began = performance.now();
  await engine.write((tx) => ensureBasis(tx, config, Date.now(), true));
  return performance.now() - began;
}

async function main(): Promise<void> {
  const rows: (string | number)[][] = [];
  const row = (what: string, samples: number[], target: number, before?: number[]) => {
    const p50 = percentile(samples, 50);
    const old = before ? percentile(before, 50) : NaN;
    rows.push([
      what,
      ms(p50),
      ms(percentile(samples, 95)),
      before ? ms(old) : '',
      before ? ratio(p50, old) : '',
      `< ${target}`,
      verdict(p50 < target),
    ]);
  };
  const dir = tempDir('agent-ledger-bench-');
  try {
    const engine = await openEngine(path.join(dir, '.agent-ledger', 'ledger.db'));
    const s = createSchedulingServices(engine, () => agents);
    await addTasks(engine, 100, 'in_progress', 100_000);
    const open = await addTasks(engine, 1000, 'open', 0);
    const started = Date.now();
    for (const id of open)
      await s.contractNet.announce({
        task_id: `task-${id}`,
        tags: [`skill-${id % 6}`],
        award: false,
        allowOverlap: false,
      });
    const perAnnounce = (Date.now() - started) / open.length;
    rows.push(['(setup) 1,000 deferred announcements', ms(perAnnounce), '', '', '', 'per call', '']);

    let next = 0;
    const fresh = await addTasks(engine, runs + 3, 'open', 200_000);
    row(
      'award (cnp_announce, award at once): 50 agents, 1,000 open calls, empty field',
      await measure(runs, () =>
        s.contractNet.announce({ task_id: `task-${fresh[next++]}`, tags: [], award: true, allowOverlap: true }),
      ),
      100,
    );

    rows.push([
      '(setup) weigh and rank 10,000 marks (once, first write after the migration)',
      ms(await addMarks(engine, 10_000, Date.now())),
      '',
      '',
      '',
      '',
      '',
    ]);
    const more = await addTasks(engine, runs + 3, 'open', 300_000);
    next = 0;
    row(
      'award, same, field of 10,000 marks',
      await measure(runs, () =>
        s.contractNet.announce({ task_id: `task-${more[next++]}`, tags: [], award: true, allowOverlap: true }),
      ),
      50,
    );
    // The part of an award that reads the field: bounds of the call's areas and of the whole field
    // (watcher). Before: the whole field loaded (first read in a process) and scanned in memory.
    const scope = [`${folders[3]}/m7/**`];
    const fieldPart = async (svc: typeof s) => {
      const field = await svc.stigmergy.field();
      return [areaBounds(field, scope, 'task-1'), fieldBounds(field)];
    };
    const sqlPart = () =>
      engine.read(async (db) => [
        await s.stigmergy.boundsIn(db, scope, 1, Date.now()),
        await s.stigmergy.fieldBoundsIn(db, Date.now()),
      ]);
    const fieldSamples = await measure(runs, () => fieldPart(createSchedulingServices(engine, () => agents)), 1);
    row(
      'field part of an award at 10,000 marks (bounds of the call + of the field)',
      await measure(runs, sqlPart),
      50,
      fieldSamples,
    );
    // The marks a call's bounds read: globs and bare words through stig_nodes.loose's index (after)
    // against the same filter finding them with LIKE over every mark (before, what v14 did).
    const nearBounds = (indexed: boolean, now = Date.now()) =>
      engine.read(async (db) =>
        areaBounds(
          createField(
            s.stigmergy.config,
            await liveMarks(db, s.stigmergy.config, now, areaCandidates(scope, indexed) ?? undefined),
          ),
          scope,
          'task-1',
        ),
      );
    const at = Date.now();
    assert.deepEqual(await nearBounds(true, at), await nearBounds(false, at), 'both filters give the same bounds');
    const scanned = await measure(runs, () => nearBounds(false), 1);
    row(
      "a call's bounds at 10,000 marks: glob and bare-word nodes by index (before: LIKE over every mark)",
      await measure(runs, () => nearBounds(true), 1),
      50,
      scanned,
    );
    const call = (await engine.read((db) =>
      db.get<{ call_id: string }>("SELECT call_id FROM cnp_calls WHERE status = 'open' LIMIT 1"),
    ))!.call_id;
    row(
      'cnp_award of an open call (1,000 open)',
      await measure(Math.min(runs, 1), () => s.contractNet.award({ call_id: call, allowOverlap: true }), 0),
      250,
    );

    await engine.write(async (tx) => {
      await tx.run('DELETE FROM stig_points');
      await bumpClock(tx);
    });
    rows.push([
      '(setup) weigh and rank 100,000 marks (once)',
      ms(await addMarks(engine, 100_000, Date.now())),
      '',
      '',
      '',
      '',
      '',
    ]);
    const count = await engine.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM stig_points'));
    rows.push([`(setup) marks in the field`, String(count?.n), '', '', '', '', '']);
    const heavy = Math.max(3, runs / 2);
    // Before: the in-memory field (a fresh process reads every mark; later reads reuse its cache while stig_clock stands still).
    const firstBefore = await measure(
      Math.min(3, heavy),
      async () => snapshot(await createSchedulingServices(engine, () => agents).stigmergy.field(), Date.now(), 100),
      0,
    );
    row(
      'stig_snapshot, 100k marks, first read in a process',
      await measure(
        Math.min(3, heavy),
        () => createSchedulingServices(engine, () => agents).stigmergy.snapshot(100),
        0,
      ),
      300,
      firstBefore,
    );
    const cachedBefore = await measure(heavy, async () => snapshot(await s.stigmergy.field(), Date.now(), 100), 1);
    row(
      'stig_snapshot, 100k marks, page of 100 (default)',
      await measure(heavy, () => s.stigmergy.snapshot(100), 1),
      300,
      cachedBefore,
    );
    const pageBefore = await measure(heavy, async () => snapshot(await s.stigmergy.field(), Date.now(), 1000), 1);
    row(
      'stig_snapshot, 100k marks, page of 1,000',
      await measure(heavy, () => s.stigmergy.snapshot(1000), 1),
      300,
      pageBefore,
    );
    const rollBefore = await measure(
      3,
      async () => rollUpToFolders(await createSchedulingServices(engine, () => agents).stigmergy.field()),
      0,
    );
    row(
      'folder roll-up (Explorer), 100k marks',
      await measure(3, () => s.stigmergy.pathPressure(), 0),
      1000,
      rollBefore,
    );
    let k = 0;
    row(
      'stig_mark into 100k marks',
      await measure(runs, () =>
        s.stigmergy.mark({ node_id: 'src/auth/x.ts', type: `changed:task-${k++}`, intensity: 1 }),
      ),
      50,
    );
    await engine.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  printTable(
    `Scheduling services over the embedded store (ms, ${runs} runs unless the row is heavy)`,
    ['operation', 'p50', 'p95', 'before p50', 'after / before', 'target', 'verdict'],
    rows,
  );
}

void main();
