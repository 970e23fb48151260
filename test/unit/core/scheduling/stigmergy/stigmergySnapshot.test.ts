import { test } from 'node:test';
import assert from 'node:assert/strict';
import { batchMark, createField, fieldPoints, mark } from '../../../../../src/core/scheduling/stigmergy/stigmergyField';
import {
  boundsTooltip,
  fieldBounds,
  formatBound,
  snapshot,
  summaryRows,
} from '../../../../../src/core/scheduling/stigmergy/stigmergySnapshot';
import {
  areaBounds,
  clearTaskMarks,
  markTypeTask,
  pressureOnAreas,
  rollUpMarks,
  rollUpToFolders,
  taskMarkType,
} from '../../../../../src/core/scheduling/stigmergy/stigmergyAreas';
import { seededRandom } from '../../../../helpers/seededRandom';
import { stigSnapshotResult } from '../../../../../src/core/scheduling/stigmergy/stigmergyContracts';
import { computePheromonePressure } from '../../../../../src/core/scheduling/contractNet/contractNetModel';

test('bounds: the fixed maximum is the ceiling; unbounded fields use the highest total, min + 1 when empty', () => {
  const empty = createField({ min_intensity: 0.25 });
  assert.deepEqual(fieldBounds(empty), { min_intensity: 0.25, max_intensity: null, normalisation_ceiling: 1.25 });
  let field = mark(empty, { node_id: 'a', type: 'load', intensity: 0.5 }, 0).field;
  field = mark(field, { node_id: 'b', type: 'load', intensity: 1.5 }, 0).field;
  assert.equal(fieldBounds(field).normalisation_ceiling, 1.5);
  const bounded = mark(createField({ max_intensity: 4 }), { node_id: 'n', type: 's', intensity: 2 }, 0).field;
  assert.deepEqual(fieldBounds(bounded), { min_intensity: 0, max_intensity: 4, normalisation_ceiling: 4 });
});

test('summary rows and tooltip are ready to show', () => {
  const bounds = { min_intensity: 0.25, max_intensity: 5, normalisation_ceiling: 5 };
  assert.equal(boundsTooltip(bounds), 'Min 0.25 • Max 5 • Ceiling 5');
  assert.equal(
    boundsTooltip({ min_intensity: 0, max_intensity: null, normalisation_ceiling: 2.34567 }),
    'Min 0 • Max ∞ • Ceiling 2.346',
  );
  assert.deepEqual(
    summaryRows(bounds).map((r) => [r.label, r.value]),
    [
      ['Min intensity', '0.25'],
      ['Max intensity', '5'],
      ['Normalisation ceiling', '5'],
    ],
  );
  assert.ok(summaryRows(bounds).every((r) => typeof r.tooltip === 'string' && r.tooltip.length > 0));
  assert.deepEqual(
    summaryRows(null).map((r) => r.value),
    ['n/a', 'n/a', 'n/a'],
  );
  assert.equal(formatBound(-0.0001), '0');
});

test('snapshot: heatmap cells normalised between min and ceiling, most marked first, in the tool’s strict shape', () => {
  let field = createField({ min_intensity: 1, max_intensity: 10 });
  field = mark(field, { node_id: 'alpha', type: 'load', intensity: 2 }, 0).field;
  field = mark(field, { node_id: 'alpha', type: 'alert', intensity: 1 }, 10).field;
  field = mark(field, { node_id: 'beta', type: 'load', intensity: 8 }, 20).field;
  const snap = snapshot(field, 30);
  stigSnapshotResult.parse(snap);
  assert.equal(snap.generated_at, 30);
  assert.equal(snap.heatmap.min_intensity, 1);
  assert.equal(snap.heatmap.max_intensity, 10);
  assert.deepEqual(
    snap.heatmap.cells.map((c) => c.node_id),
    ['beta', 'alpha'],
  );
  assert.ok(Math.abs(snap.heatmap.cells[0].normalised - 7 / 9) < 1e-6);
  const alpha = snap.heatmap.cells[1];
  assert.deepEqual(
    alpha.points.map((p) => p.type),
    ['load', 'alert'],
  );
  assert.ok(Math.abs(alpha.points[0].normalised - 1 / 9) < 1e-6);
  assert.equal(alpha.points[1].normalised, 0, 'at the minimum a mark normalises to 0');
  assert.equal(alpha.updated_at, 10);
  assert.deepEqual(snap.pheromone_bounds, { min_intensity: 1, max_intensity: 10, normalisation_ceiling: 10 });
  assert.deepEqual(snap.summary.bounds, snap.pheromone_bounds);
  assert.equal(snap.heatmap.bounds_tooltip, 'Min 1 • Max 10 • Ceiling 10');
  assert.equal(snap.summary.tooltip, snap.heatmap.bounds_tooltip);
  assert.deepEqual(
    snap.points.map((p) => `${p.node_id}/${p.type}`),
    ['beta/load', 'alpha/load', 'alpha/alert'],
  );
  assert.deepEqual(
    snap.totals.map((t) => [t.node_id, t.intensity]),
    [
      ['beta', 8],
      ['alpha', 3],
    ],
  );
  assert.equal(snap.truncated, false);
});

test('snapshot limit cuts the lists and says so', () => {
  const entries = Array.from({ length: 30 }, (_, i) => ({
    node_id: `src/f${i}.ts`,
    type: 'scope:task-1',
    intensity: i + 1,
  }));
  const snap = snapshot(batchMark(createField(), entries, 0).field, 1, 5);
  assert.deepEqual(
    snap.totals.map((t) => t.node_id),
    ['src/f29.ts', 'src/f28.ts', 'src/f27.ts', 'src/f26.ts', 'src/f25.ts'],
  );
  assert.equal(snap.heatmap.cells.length, 5);
  assert.equal(snap.truncated, true);
  assert.equal(snap.pointCount, 30);
  assert.equal(snap.nodeCount, 30);
  assert.equal(snap.pheromone_bounds.normalisation_ceiling, 30, 'bounds use the whole field');
});

test('task marks: one type per kind and task, cleared together when the task ends', () => {
  assert.equal(taskMarkType('Task-12', 'scope'), 'scope:task-12');
  assert.equal(markTypeTask('changed:task-12'), 'task-12');
  assert.equal(markTypeTask('load'), null);
  let field = createField();
  field = batchMark(
    field,
    [
      { node_id: 'src/auth/**', type: taskMarkType('task-1', 'scope'), intensity: 5 },
      { node_id: 'src/auth/login.ts', type: taskMarkType('task-1', 'changed'), intensity: 1 },
      { node_id: 'src/api/**', type: taskMarkType('task-2', 'scope'), intensity: 5 },
    ],
    0,
  ).field;
  const { field: after, changes } = clearTaskMarks(field, 'TASK-1', 50);
  assert.deepEqual(
    changes.map((c) => [c.point.node_id, c.point.intensity]),
    [
      ['src/auth/**', 0],
      ['src/auth/login.ts', 0],
    ],
  );
  assert.deepEqual(
    fieldPoints(after).map((p) => p.type),
    ['scope:task-2'],
  );
});

test('folders roll up the pressure of the files and scopes under them', () => {
  const field = batchMark(
    createField(),
    [
      { node_id: 'src/auth/login.ts', type: 'changed:task-1', intensity: 2 },
      { node_id: 'src/auth/**', type: 'scope:task-1', intensity: 5 },
      { node_id: 'src/api/routes.ts', type: 'changed:task-2', intensity: 1 },
      { node_id: '**/*.md', type: 'scope:task-3', intensity: 4 },
      { node_id: 'README.md', type: 'load', intensity: 1 },
    ],
    0,
  ).field;
  const rows = Object.fromEntries(rollUpToFolders(field).map((r) => [r.path, r]));
  assert.deepEqual(Object.keys(rows), [
    '**/*.md',
    'README.md',
    'src',
    'src/api',
    'src/api/routes.ts',
    'src/auth',
    'src/auth/login.ts',
  ]);
  assert.deepEqual(
    { ...rows.src },
    {
      path: 'src',
      intensity: 8,
      ownIntensity: 0,
      types: ['changed:task-1', 'changed:task-2', 'scope:task-1'],
      tasks: ['task-1', 'task-2'],
    },
  );
  assert.equal(rows['src/auth'].intensity, 7);
  assert.equal(rows['src/auth'].ownIntensity, 5, 'the glob rooted at src/auth is its own pressure');
  assert.deepEqual(rows['src/auth/login.ts'].tasks, ['task-1']);
  assert.equal(rows['**/*.md'].intensity, 4, 'a root glob names no folder and stays on its own');
});

test('the roll-up is the same to the last bit whatever order the marks come in (the field, the store rows)', () => {
  const random = seededRandom(5);
  const nodes = [
    'src/auth/login.ts',
    'src/auth/**',
    'src/auth',
    'src/api/x.ts',
    'src/api/y.ts',
    'src',
    'src/**',
    'docs/a.md',
    '**/*.md',
    'README.md',
    'auth',
    '/abs/file.ts',
  ];
  const marks = Array.from({ length: 300 }, (_, i) => ({
    node_id: nodes[i % nodes.length],
    type: `t-${Math.floor(i / nodes.length)}`,
    intensity: 0.1 + random() * 3,
    updated_at: i,
  }));
  const config = createField().config;
  const expected = rollUpMarks(config, marks);
  for (let round = 0; round < 5; round++) {
    const shuffled = [...marks].sort(() => random() - 0.5);
    assert.deepEqual(rollUpMarks(config, shuffled), expected, `shuffle ${round}`);
  }
  assert.deepEqual(rollUpToFolders(createField(config, marks)), expected, 'the field gives the same');
  const rows = Object.fromEntries(expected.map((r) => [r.path, r]));
  assert.deepEqual(Object.keys(rows), [
    '**/*.md',
    '/abs',
    '/abs/file.ts',
    'README.md',
    'auth',
    'docs',
    'docs/a.md',
    'src',
    'src/api',
    'src/api/x.ts',
    'src/api/y.ts',
    'src/auth',
    'src/auth/login.ts',
  ]);
  const near = (a: number, b: number) => Math.abs(a - b) < 1e-9;
  const sum = (ids: string[]) => marks.filter((m) => ids.includes(m.node_id)).reduce((s, m) => s + m.intensity, 0);
  assert.ok(
    near(
      rows.src.intensity,
      sum(['src/auth/login.ts', 'src/auth/**', 'src/auth', 'src/api/x.ts', 'src/api/y.ts', 'src', 'src/**']),
    ),
    'src holds everything under it',
  );
  assert.ok(
    near(rows['src/auth'].ownIntensity, sum(['src/auth/**', 'src/auth'])),
    'the folder node and the glob rooted there are its own',
  );
  assert.ok(
    !('' in rows) && near(rows['/abs'].intensity, sum(['/abs/file.ts'])),
    'a leading slash names no folder above it',
  );
  assert.equal(rows.auth.types.length, 25, 'a bare word is its own row');
});

test('pressure on a task’s areas counts every node that may overlap them, except its own marks', () => {
  const field = batchMark(
    createField(),
    [
      { node_id: 'src/auth/**', type: 'scope:task-1', intensity: 5 },
      { node_id: 'src/auth/login.ts', type: 'changed:task-1', intensity: 2 },
      { node_id: 'src/api/**', type: 'scope:task-2', intensity: 3 },
      { node_id: 'docs/guide.md', type: 'changed:task-3', intensity: 1 },
    ],
    0,
  ).field;
  const p = pressureOnAreas(field, ['src/auth/session.ts', 'src/auth/*.test.ts']);
  assert.deepEqual(
    p.nodes.map((n) => n.node_id),
    ['src/auth/**'],
    'login.ts is another file; src/api is elsewhere',
  );
  assert.deepEqual(
    pressureOnAreas(field, ['src/auth/**/*.test.ts']).nodes.map((n) => n.node_id),
    ['src/auth/**', 'src/auth/login.ts'],
    'a path is also a folder: src/auth/login.ts/x.test.ts could exist',
  );
  assert.equal(p.max, 5);
  assert.equal(pressureOnAreas(field, ['src/**']).total, 10);
  assert.equal(pressureOnAreas(field, ['src/auth/**'], 'task-1').total, 0, 'a task does not press on itself');
  const quiet = areaBounds(field, ['lib/**']);
  assert.equal(computePheromonePressure(quiet), 1, 'quiet areas: neutral pressure');
  const busy = areaBounds(field, ['src/auth/**']);
  assert.equal(busy.normalisation_ceiling, 5, 'the most marked node among the areas');
  assert.ok(Math.abs(computePheromonePressure(busy) - (1 + Math.log1p(5))) < 1e-12);
});

test('a limited snapshot selects exactly the head of the full one', () => {
  let seed = 3;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const entries = Array.from({ length: 200 }, () => ({
    node_id: `src/n${Math.floor(random() * 60)}.ts`,
    type: `scope:task-${Math.floor(random() * 5)}`,
    intensity: 1 + Math.floor(random() * 4),
  }));
  const field = batchMark(createField(), entries, 7).field;
  const full = snapshot(field, 8);
  for (const k of [1, 7, 25, 1000]) {
    const part = snapshot(field, 8, k);
    assert.deepEqual(part.points, full.points.slice(0, k));
    assert.deepEqual(part.totals, full.totals.slice(0, k));
    assert.deepEqual(part.heatmap.cells, full.heatmap.cells.slice(0, k));
    assert.equal(part.truncated, k < full.points.length);
  }
});
