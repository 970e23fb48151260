// The stigmergy tools aggregate in SQL (stigmergyQueries.ts) on both engines: a limited
// stig_snapshot, the bounds contract-net puts on a call, the pressure on areas and the folder
// roll-up must equal what the whole field in memory gives, on a random field with decayed marks,
// marks of ended tasks and a bounded variant.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSchedulingServices } from '../../../src/core/scheduling/schedulingServices';
import { snapshot } from '../../../src/core/scheduling/stigmergySnapshot';
import { areaBounds, pressureOnAreas, rollUpToFolders } from '../../../src/core/scheduling/stigmergyAreas';
import type { LedgerEngine } from '../../../src/core/ports';
import { engineCases } from '../store/engines/engineKit';

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const folders = ['src/auth', 'src/api', 'docs', 'test/unit', 'lib'];
const globs = ['src/**', 'src/auth/**', 'docs/*.md', '**/*.ts', 'auth', 'README.md'];
const areas = [['src/auth/**'], ['src/api/x1.ts'], ['docs'], ['**/*.md'], ['auth'], ['lib/**', 'test/**'], ['nothing/here/**']];

async function addTask(engine: LedgerEngine, status: string): Promise<number> {
  return engine.write((tx) => tx.insert('INSERT INTO tasks (title, status, areas, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', ['t', status, '[]', 't', 't']));
}

for (const engineCase of engineCases) {
  for (const maxIntensity of [null, 6]) {
    test(`stigmergy in SQL on ${engineCase.name} (max ${maxIntensity ?? '∞'}): snapshot, bounds, pressure and roll-up equal the in-memory field`, { skip: engineCase.skip }, async () => {
      const ledger = await engineCase.ledger();
      try {
        let now = 5_000_000;
        const engine = await ledger.open();
        const s = createSchedulingServices(engine, () => [], () => now, { halfLifeMs: 60_000, maxIntensity });
        const running = await addTask(engine, 'in_progress');
        const ended = await addTask(engine, 'in_progress');
        const random = rng(maxIntensity === null ? 7 : 11);
        for (let round = 0; round < 6; round++) {
          const entries = Array.from({ length: 40 }, () => {
            const r = random();
            const node = r < 0.25 ? globs[Math.floor(random() * globs.length)] : `${folders[Math.floor(random() * folders.length)]}/x${Math.floor(random() * 8)}.ts`;
            const owner = random();
            const type = owner < 0.3 ? `scope:task-${running}` : owner < 0.5 ? `changed:task-${ended}` : `label-${Math.floor(random() * 3)}`;
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
          assert.deepEqual(await s.stigmergy.boundsFor(a, running), areaBounds(field, a, `task-${running}`), `bounds on ${a.join(', ')}`);
          assert.deepEqual(await s.stigmergy.pressureOn(a), pressureOnAreas(field, a), `pressure on ${a.join(', ')}`);
        }
        assert.deepEqual(await s.stigmergy.pathPressure(), rollUpToFolders(field));
        now += 600 * 60_000; // every mark is far past the evaporation floor
        const empty = await s.stigmergy.snapshot(10);
        assert.equal(empty.pointCount, 0);
        assert.deepEqual(empty, snapshot(await s.stigmergy.field(), now, 10));
      } finally {
        await ledger.dispose();
      }
    });
  }
}
