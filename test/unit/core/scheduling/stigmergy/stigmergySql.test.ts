// The stigmergy tools aggregate in SQL (stigmergyQueries.ts) on both engines: a limited
// stig_snapshot, the bounds contract-net puts on a call, the pressure on areas and the folder
// roll-up must equal what the whole field in memory gives, on a random field with decayed marks,
// marks of ended tasks and a bounded variant.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSchedulingServices } from '../../../../../src/core/scheduling/schedulingServices';
import { snapshot } from '../../../../../src/core/scheduling/stigmergy/stigmergySnapshot';
import {
  areaBounds,
  pressureOnAreas,
  rollUpToFolders,
} from '../../../../../src/core/scheduling/stigmergy/stigmergyAreas';
import type { PathPressure } from '../../../../../src/core/scheduling/stigmergy/stigmergyAreas';
import type { LedgerEngine } from '../../../../../src/core/ports/store';
import { rankedBasis } from '../../../../../src/core/scheduling/stigmergy/stigmergyWeights';
import { engineCases } from '../../../store/engines/engineKit';
import { seededRandom } from '../../../../helpers/seededRandom';
import { isGlobPattern } from '../../../../../src/core/tasks/scopePatterns';

const folders = ['src/auth', 'src/api', 'docs', 'test/unit', 'lib'];
const globs = ['src/**', 'src/auth/**', 'docs/*.md', '**/*.ts', 'auth', 'README.md'];
const areas = [
  ['src/auth/**'],
  ['src/api/x1.ts'],
  ['docs'],
  ['**/*.md'],
  ['auth'],
  ['lib/**', 'test/**'],
  ['nothing/here/**'],
];

/**
 * The unrounded bounds (`pheromone_bounds`, `heatmap.bounds`, `summary.bounds`) hold a node
 * total whose marks the store may add in another order than the in-memory field: equal to the
 * last few bits. Everything the tools round (six decimals) must be identical as it is.
 */
function settled<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), (key, v: unknown) =>
    key === 'normalisation_ceiling' && typeof v === 'number' ? Number(v.toPrecision(12)) : v,
  ) as T;
}

async function addTask(engine: LedgerEngine, status: string): Promise<number> {
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

for (const engineCase of engineCases) {
  for (const maxIntensity of [null, 6]) {
    test(
      `stigmergy in SQL on ${engineCase.name} (max ${maxIntensity ?? '∞'}): snapshot, bounds, pressure and roll-up equal the in-memory field`,
      { skip: engineCase.skip },
      async () => {
        const ledger = await engineCase.ledger();
        try {
          let now = 5_000_000;
          const engine = await ledger.open();
          const s = createSchedulingServices(
            engine,
            () => [],
            () => now,
            { halfLifeMs: 60_000, maxIntensity },
          );
          const running = await addTask(engine, 'in_progress');
          const ended = await addTask(engine, 'in_progress');
          const random = seededRandom(maxIntensity === null ? 7 : 11);
          for (let round = 0; round < 6; round++) {
            const entries = Array.from({ length: 40 }, () => {
              const r = random();
              const node =
                r < 0.25
                  ? globs[Math.floor(random() * globs.length)]
                  : `${folders[Math.floor(random() * folders.length)]}/x${Math.floor(random() * 8)}.ts`;
              const owner = random();
              const type =
                owner < 0.3
                  ? `scope:task-${running}`
                  : owner < 0.5
                    ? `changed:task-${ended}`
                    : `label-${Math.floor(random() * 3)}`;
              return { node_id: node, type, intensity: 1 + Math.floor(random() * 4) };
            });
            await s.stigmergy.batch(entries);
            now += 45_000; // marks of each round fade differently
          }
          await engine.write((tx) => tx.run("UPDATE tasks SET status = 'done' WHERE id = ?", [ended])); // its marks stop counting, still stored
          now += 10_000;
          const field = await s.stigmergy.field();
          assert.ok(field.points.size > 50, `a field worth comparing (${field.points.size} live marks)`);
          assert.deepEqual(await s.stigmergy.snapshot(), snapshot(field, now), 'the whole snapshot');
          for (const limit of [1, 5, 17, 1000]) {
            const fromSql = await s.stigmergy.snapshot(limit);
            assert.deepEqual(fromSql, snapshot(field, now, limit), `snapshot limited to ${limit}`);
            if (limit === 5) assert.equal(fromSql.truncated, true);
          }
          for (const a of areas) {
            assert.deepEqual(
              await s.stigmergy.boundsFor(a, running),
              areaBounds(field, a, `task-${running}`),
              `bounds on ${a.join(', ')}`,
            );
            assert.deepEqual(await s.stigmergy.pressureOn(a), pressureOnAreas(field, a), `pressure on ${a.join(', ')}`);
          }
          // The roll-up sums each mark's weight (stigmergyPressure.ts) where the field fades each mark on its own: equal to the last few bits.
          const near = (paths: PathPressure[]) =>
            paths.map((p) => ({
              ...p,
              intensity: Number(p.intensity.toPrecision(12)),
              ownIntensity: Number(p.ownIntensity.toPrecision(12)),
            }));
          assert.deepEqual(near(await s.stigmergy.pathPressure()), near(rollUpToFolders(field)));
          // Node rows from before stig_nodes.loose existed (NULL) still count as candidates for a call's bounds.
          await engine.write((tx) => tx.run('UPDATE stig_nodes SET loose = NULL'));
          for (const a of areas)
            assert.deepEqual(
              await s.stigmergy.boundsFor(a, running),
              areaBounds(field, a, `task-${running}`),
              `bounds on ${a.join(', ')}, flags not filled in yet`,
            );
          // A write purges the ended task's marks: from then on an unbounded field is read from the ranked store (stigmergyWeights.ts).
          await s.stigmergy.mark({ node_id: 'lib/x0.ts', type: 'label-0', intensity: 1 });
          const unflagged = await engine.read((db) =>
            db.get<{ n: number }>('SELECT COUNT(*) AS n FROM stig_nodes WHERE loose IS NULL'),
          );
          assert.equal(Number(unflagged?.n), 0, 'the first write fills in the loose flag of every node');
          const flags = await engine.read((db) =>
            db.all<{ node_id: string; loose: number }>('SELECT node_id, loose FROM stig_nodes'),
          );
          assert.ok(
            flags.some((r) => Number(r.loose) === 1) && flags.some((r) => Number(r.loose) === 0),
            'both kinds of nodes are stored',
          );
          for (const r of flags)
            assert.equal(
              Number(r.loose),
              isGlobPattern(r.node_id) || !r.node_id.includes('/') ? 1 : 0,
              `loose flag of ${r.node_id}`,
            );
          const ranked = await engine.read((db) => rankedBasis(db, s.stigmergy.config));
          assert.equal(ranked !== null, maxIntensity === null, 'the ranked store serves unbounded fields only');
          const compare = async (what: string) => {
            const live = await s.stigmergy.field();
            for (const limit of [1, 5, 17, 1000])
              assert.deepEqual(
                settled(await s.stigmergy.snapshot(limit)),
                settled(snapshot(live, now, limit)),
                `${what}: snapshot limited to ${limit}`,
              );
            const bounds = await engine.read((db) => s.stigmergy.fieldBoundsIn(db, now));
            assert.deepEqual(
              settled(bounds),
              settled(snapshot(live, now).pheromone_bounds),
              `${what}: bounds of the field`,
            );
          };
          await compare('after the purge');
          now += 30_000;
          await compare('half a half-life later');
          await s.stigmergy.clearTask(running);
          await compare('after a task cleared its marks');
          await s.stigmergy.decay(20_000);
          await compare('after stig_decay');
          now += 600 * 60_000; // every mark is far past the evaporation floor (and 600 half-lives past the weights' epoch)
          const empty = await s.stigmergy.snapshot(10);
          assert.equal(empty.pointCount, 0);
          assert.deepEqual(empty, snapshot(await s.stigmergy.field(), now, 10));
          await s.stigmergy.batch([
            { node_id: 'src/api/x1.ts', type: 'a', intensity: 2 },
            { node_id: 'docs/x2.ts', type: 'b', intensity: 3 },
          ]);
          now += 1_000;
          await compare('after the epoch moved');
        } finally {
          await ledger.dispose();
        }
      },
    );
  }
}
