// The Explorer's pressure roll-up kept up to date (stigmergyPressure.ts, change log v17) on both
// engines: after seeded random sequences of marks, task marks, cleared and ended tasks (and one
// coming back), decays, evaporation and time passing, the kept roll-up equals one built from
// scratch for the same moments to the last bit, and the field's own numbers within rounding; a
// read after a change reads only the marks of the changed nodes, an unchanged read none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSchedulingServices } from '../../../../../src/core/scheduling/schedulingServices';
import { PressureFollower } from '../../../../../src/core/scheduling/stigmergy/stigmergyPressure';
import { liveMarks } from '../../../../../src/core/scheduling/stigmergy/stigmergyQueries';
import { rollUpMarks } from '../../../../../src/core/scheduling/stigmergy/stigmergyAreas';
import type { PathPressure } from '../../../../../src/core/scheduling/stigmergy/stigmergyAreas';
import { bumpClock, keptChangeVersions } from '../../../../../src/core/scheduling/stigmergy/stigmergyStore';
import type { AsyncSqlReader, LedgerEngine } from '../../../../../src/core/ports/store';
import { engineCases } from '../../../store/engines/engineKit';
import { seededRandom } from '../../../../helpers/seededRandom';

const folders = ['src/auth', 'src/api', 'docs', 'test/unit', 'lib/a/b'];
const loose = ['src/**', 'src/auth/**', 'docs/*.md', '**/*.ts', 'auth', 'README.md', '/abs/x.ts'];
const halfLife = 60_000;

async function addTask(engine: LedgerEngine, status = 'in_progress'): Promise<number> {
  return engine.write((tx) =>
    tx.insert('INSERT INTO tasks (title, status, areas, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [
      't',
      status,
      '[]',
      't',
      't',
    ]),
  );
}

/** The same roll-up with intensities rounded to 9 significant digits (the field fades each mark on its own: equal to the last few bits). */
function rounded(paths: readonly PathPressure[]): PathPressure[] {
  const r = (v: number) => Number(v.toPrecision(9));
  return paths.map((p) => ({ ...p, intensity: r(p.intensity), ownIntensity: r(p.ownIntensity) }));
}

/** An engine whose reads record how many rows each statement on stig_points returned. */
function counting(engine: LedgerEngine, rows: { sql: string; n: number }[]): LedgerEngine {
  const wrap = (db: AsyncSqlReader): AsyncSqlReader =>
    new Proxy(db, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (key !== 'all' && key !== 'get')
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        return async (sql: string, params?: unknown[]) => {
          const out = (await (value as (s: string, p?: unknown[]) => Promise<unknown>).call(
            target,
            sql,
            params,
          )) as unknown;
          if (/FROM stig_points/.test(sql))
            rows.push({ sql, n: Array.isArray(out) ? out.length : out === undefined ? 0 : 1 });
          return out;
        };
      },
    });
  return new Proxy(engine, {
    get(target, key) {
      if (key === 'read') return (fn: (db: AsyncSqlReader) => Promise<unknown>) => target.read((db) => fn(wrap(db)));
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

for (const engineCase of engineCases) {
  for (const maxIntensity of [null, 6]) {
    test(
      `pressure roll-up kept up to date on ${engineCase.name} (max ${maxIntensity ?? '∞'}): equals the roll-up built from scratch after random changes`,
      { skip: engineCase.skip },
      async () => {
        const ledger = await engineCase.ledger();
        try {
          const engine = await ledger.open();
          let now = 1_800_000_000_000;
          const s = createSchedulingServices(
            engine,
            () => [],
            () => now,
            { halfLifeMs: halfLife, maxIntensity },
          );
          const stig = s.stigmergy;
          const tasks = [await addTask(engine), await addTask(engine), await addTask(engine), await addTask(engine)];
          const random = seededRandom(maxIntensity === null ? 17 : 23);
          const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
          const node = () => (random() < 0.25 ? pick(loose) : `${pick(folders)}/f${Math.floor(random() * 12)}.ts`);
          let incremental = 0;
          let previous = await stig.pressureRollUp();
          for (let step = 0; step < 70; step++) {
            const r = random();
            if (r < 0.35) {
              await stig.batch(
                Array.from({ length: 1 + Math.floor(random() * 6) }, () => ({
                  node_id: node(),
                  type: random() < 0.5 ? `scope:task-${pick(tasks)}` : `label-${Math.floor(random() * 3)}`,
                  intensity: random() < 0.2 ? 0.00002 : 0.5 + random() * 4,
                })),
              );
            } else if (r < 0.5) {
              await stig.markTask(
                pick(tasks),
                Array.from({ length: 1 + Math.floor(random() * 4) }, node),
                'changed',
                1 + Math.floor(random() * 3),
              );
            } else if (r < 0.58) {
              await stig.clearTask(pick(tasks));
            } else if (r < 0.68) {
              // A task ends without its hook (its marks stay stored, stop counting) — or comes back.
              const task = pick(tasks);
              await engine.write((tx) =>
                tx.run('UPDATE tasks SET status = ? WHERE id = ?', [random() < 0.7 ? 'done' : 'in_progress', task]),
              );
            } else if (r < 0.72) {
              await stig.decay(halfLife * (0.5 + random()));
            } else if (r < 0.8) {
              now += Math.floor(random() * halfLife * 8); // marks evaporate; past one half-life the numbers move to a new moment
            } else if (r < 0.82) {
              now += halfLife * 70; // a new window of weights: everything read again
            }
            now += 1 + Math.floor(random() * 5_000);
            const kept = await stig.pressureRollUp();
            if (kept !== previous && kept.version === previous.version) incremental++;
            const unchanged = kept === previous;
            previous = kept;
            // A bounded field that fades is rolled up again at each change; unchanged, its last roll-up stands (numbers of its moment).
            if (maxIntensity !== null && unchanged) continue;
            const fresh = await engine.read((db) => new PressureFollower(stig.config).read(db, now, kept.at));
            assert.deepEqual(
              kept.paths,
              fresh.paths,
              `step ${step}: kept and rebuilt roll-ups are the same to the last bit`,
            );
            // The field's own numbers (each mark faded on its own, in SQL) agree within rounding.
            const field = await engine.read((db) => liveMarks(db, stig.config, now));
            const back = Math.pow(2, (now - kept.at) / halfLife);
            assert.deepEqual(
              rounded(kept.paths),
              rounded(
                rollUpMarks(
                  stig.config,
                  field.map((p) => ({ ...p, intensity: maxIntensity === null ? p.intensity * back : p.intensity })),
                ),
              ),
              `step ${step}: the field's roll-up`,
            );
            if (maxIntensity !== null)
              assert.equal(kept.at, now, 'a bounded field that fades is rolled up at the moment it is read');
          }
          assert.ok(previous.paths.length > 5, `a roll-up worth comparing (${previous.paths.length} paths)`);
          assert.ok(
            incremental > 3,
            `ended tasks or evaporation were folded in without a change of the marks (${incremental} times)`,
          );
        } finally {
          await ledger.dispose();
        }
      },
    );
  }

  test(
    `pressure roll-up on ${engineCase.name}: a read after a change reads only the changed nodes' marks; unchanged, none`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        let now = 1_800_000_000_000;
        const rows: { sql: string; n: number }[] = [];
        const s = createSchedulingServices(
          counting(engine, rows),
          () => [],
          () => now,
          { halfLifeMs: halfLife },
        );
        const task = await addTask(engine);
        await s.stigmergy.markTask(
          task,
          Array.from({ length: 600 }, (_, i) => `src/m${i % 20}/f${i}.ts`),
          'changed',
        );
        const first = await s.stigmergy.pressureRollUp();
        const read = (from: number) => rows.slice(from).reduce((sum, r) => sum + r.n, 0);
        assert.ok(read(0) >= 600, `the first read takes every mark (${read(0)} rows)`);
        let mark = rows.length;
        now += 1_000;
        assert.equal(await s.stigmergy.pressureRollUp(), first, 'unchanged: the same roll-up');
        assert.equal(read(mark), 0, 'unchanged: no mark read');
        mark = rows.length;
        await s.stigmergy.markTask(task, ['src/m3/f3.ts', 'docs/new.md'], 'changed');
        const after = await s.stigmergy.pressureRollUp();
        assert.equal(read(mark), 2, 'after a change: the marks of the two changed nodes only');
        assert.notEqual(after, first);
        const unchanged = first.paths.find((p) => p.path === 'src/m5/f5.ts');
        assert.equal(
          after.paths.find((p) => p.path === 'src/m5/f5.ts'),
          unchanged,
          'an untouched path is the same object',
        );
        assert.ok(
          after.paths.some((p) => p.path === 'docs/new.md') && after.paths.find((p) => p.path === 'src')!.intensity > 0,
        );
        // A weak mark evaporates, a task ends: both folded in without reading any mark.
        await s.stigmergy.mark({ node_id: 'docs/weak.md', type: 'label', intensity: 0.00002 });
        const other = await addTask(engine);
        await s.stigmergy.markTask(other, ['lib/other.ts'], 'scope');
        const withWeak = await s.stigmergy.pressureRollUp();
        assert.ok(
          withWeak.paths.some((p) => p.path === 'docs/weak.md') &&
            withWeak.paths.some((p) => p.path === 'lib/other.ts'),
        );
        now += halfLife * 5; // 0.00002 fades under the floor (1e-6) after 4.3 half-lives
        await engine.write((tx) => tx.run("UPDATE tasks SET status = 'done' WHERE id = ?", [other]));
        mark = rows.length;
        const faded = await s.stigmergy.pressureRollUp();
        assert.equal(read(mark), 0, 'evaporation and an ended task: no mark read');
        assert.equal(faded.version, withWeak.version);
        assert.ok(
          !faded.paths.some((p) => p.path === 'docs/weak.md' || p.path.startsWith('lib')),
          'the evaporated mark and the ended task are gone',
        );
        assert.deepEqual(
          faded.paths,
          (await engine.read((db) => new PressureFollower(s.stigmergy.config).read(db, now, faded.at))).paths,
        );
        assert.equal(faded.at, now, 'five half-lives later the numbers are faded to the new moment');
        // A write that does not say which nodes it changed (a writer from before the change log): everything again.
        await engine.write((tx) => bumpClock(tx));
        mark = rows.length;
        await s.stigmergy.pressureRollUp();
        assert.ok(read(mark) >= 601, 'a change of every node: every mark read again');
        // A reader further behind than the log keeps: everything again, and still right.
        for (let i = 0; i < 3; i++)
          await s.stigmergy.mark({ node_id: `docs/extra${i}.md`, type: 'label', intensity: 1 });
        await engine.write(async (tx) => {
          const v = Number((await tx.get<{ version: number }>('SELECT version FROM stig_clock WHERE id = 1'))?.version);
          await tx.run('DELETE FROM stig_changes WHERE version <= ?', [v - 1]);
        });
        mark = rows.length;
        const behind = await s.stigmergy.pressureRollUp();
        assert.ok(read(mark) >= 604, 'a gap in the log: every mark read again');
        const fresh = await engine.read((db) => new PressureFollower(s.stigmergy.config).read(db, now, behind.at));
        assert.deepEqual(behind.paths, fresh.paths);
        const logged = await engine.read((db) =>
          db.get<{ n: number }>('SELECT COUNT(DISTINCT version) AS n FROM stig_changes'),
        );
        assert.ok(Number(logged?.n) <= keptChangeVersions, 'the log keeps a bounded number of versions');
      } finally {
        await ledger.dispose();
      }
    },
  );
}
