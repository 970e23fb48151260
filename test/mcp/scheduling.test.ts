import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { tempRepo } from '../helpers/tmp';
import { defaultStigHalfLifeMs } from '../../src/core/scheduling/stigmergy/stigmergyService';

/**
 * The scheduling tools of the orchestrator family (stig_*, cnp_*, kg_*) through the real SDK
 * client against dist/cli.js, with several server processes on one workspace.
 */

interface Point {
  node_id: string;
  type: string;
  intensity: number;
  updated_at: number;
}
interface Change {
  point: Point;
  node_total: { node_id: string; intensity: number; updated_at: number };
}
interface Snapshot {
  generated_at: number;
  points: Point[];
  totals: { node_id: string; intensity: number }[];
  pheromone_bounds: { min_intensity: number; max_intensity: number | null; normalisation_ceiling: number };
  summary: { rows: { label: string; value: string; tooltip: string | null }[]; tooltip: string };
  heatmap: { bounds_tooltip: string; cells: { node_id: string; normalised: number }[] };
  pointCount: number;
}
interface Conflict {
  runningTaskId: string;
  pairs: { left: string; right: string }[];
}
interface Announce {
  call_id: string;
  task_id: string;
  status: string;
  awarded_agent_id: string | null;
  auto_bid_enabled: boolean;
  bids: { agent_id: string; kind: string; metadata: Record<string, unknown> }[];
  notAwardedReason: string | null;
  conflicts: Conflict[];
  idempotent: boolean;
  pheromone_bounds: { normalisation_ceiling: number } | null;
}

const agentFiles = {
  'README.md': '# test\n',
  '.agent-ledger/agents/alice.yaml':
    'client: claude-code\nscope:\n  write: ["src/**", "docs/**"]\nconfig:\n  tags: [backend]\n',
  '.agent-ledger/agents/bob.yaml': 'client: claude-code\nscope:\n  write: ["src/**", "docs/**"]\n',
  // A team of two: the built-in coder and reviewer were written and deleted (the ledger's record says so).
  '.agent-ledger/agents/.written/coder.yaml.sha256': `${'0'.repeat(64)}  coder.yaml\n`,
  '.agent-ledger/agents/.written/reviewer.yaml.sha256': `${'0'.repeat(64)}  reviewer.yaml\n`,
};

async function createTask(c: LedgerClient, title: string): Promise<number> {
  return (await c.call<{ id: number }>('task_create', { title })).id;
}

test('stig_batch with one bad entry leaves the field unchanged; another process sees every mark', async () => {
  const repo = tempRepo();
  const a = await connect(repo, ['--enable-orchestrator']);
  const b = await connect(repo, ['--enable-orchestrator']);
  try {
    const markedAt = Date.now();
    const marked = await a.call<Change>('stig_mark', { node_id: './src\\auth/', type: 'Scope:Task-1', intensity: 2 });
    assert.deepEqual(
      [marked.point.node_id, marked.point.type, marked.point.intensity],
      ['src/auth', 'scope:task-1', 2],
    );
    const before = await b.call<Snapshot>('stig_snapshot', {});
    assert.deepEqual(
      before.points.map((p) => p.node_id),
      ['src/auth'],
      'the other process sees the mark',
    );

    const refused = await b.fail('stig_batch', {
      entries: [
        { node_id: 'src/auth', type: 'scope:task-1', intensity: 5 },
        { node_id: 'src/api', type: 'scope:task-2', intensity: 0 },
      ],
    });
    assert.equal(refused.reason, 'ValidationError');
    const after = await a.call<Snapshot>('stig_snapshot', {});
    assert.deepEqual(
      after.points.map((p) => [p.node_id, p.type, p.updated_at]),
      before.points.map((p) => [p.node_id, p.type, p.updated_at]),
      'nothing of the refused batch was applied',
    );
    assert.ok(after.points[0].intensity <= before.points[0].intensity);

    const batch = await b.call<{ changes: Change[] }>('stig_batch', {
      entries: [
        { node_id: 'src/auth', type: 'scope:task-1', intensity: 1 },
        { node_id: 'src/api/routes.ts', type: 'changed:task-2', intensity: 3 },
      ],
    });
    const elapsedMs = Date.now() - markedAt;
    assert.equal(batch.changes.length, 2);
    // The first mark faded (half-life) for at most the time since it was made, then 1 was added to it.
    const added = batch.changes[0].point.intensity;
    assert.ok(
      added <= 3 + 1e-9 && added >= 2 * 2 ** (-elapsedMs / defaultStigHalfLifeMs) + 1 - 1e-9,
      `marks on the same node and type add up (${added} after ${elapsedMs} ms)`,
    );
    const snap = await a.call<Snapshot>('stig_snapshot', { limit: 10 });
    assert.equal(snap.pointCount, 2);
    assert.deepEqual(
      snap.summary.rows.map((r) => r.label),
      ['Min intensity', 'Max intensity', 'Normalisation ceiling'],
    );
    assert.equal(snap.pheromone_bounds.max_intensity, null);
    assert.equal(snap.summary.rows[1].value, '∞');
    // The ceiling is the strongest node: the fresh 3 on src/api/routes.ts, faded for at most the time since.
    const ceiling = /^Min 0 • Max ∞ • Ceiling ([\d.]+)/.exec(snap.heatmap.bounds_tooltip);
    assert.ok(ceiling, snap.heatmap.bounds_tooltip);
    const sinceMs = Date.now() - markedAt;
    assert.ok(
      Number(ceiling[1]) <= 3 + 1e-9 && Number(ceiling[1]) >= 3 * 2 ** (-sinceMs / defaultStigHalfLifeMs) - 1e-6,
      snap.heatmap.bounds_tooltip,
    );
    assert.equal(snap.heatmap.cells[0].normalised, 1);
  } finally {
    await a.close();
    await b.close();
  }
});

test('pressure decays on schedule: stig_decay halves per half-life, reads fade with time', async () => {
  const c = await connect(tempRepo(), ['--enable-orchestrator']);
  try {
    const marked = await c.call<Change>('stig_mark', { node_id: 'src/a.ts', type: 'changed:task-9', intensity: 8 });
    await new Promise((r) => setTimeout(r, 300));
    const faded = await c.call<Snapshot>('stig_snapshot', {});
    const elapsed = faded.generated_at - marked.point.updated_at;
    assert.ok(elapsed >= 250);
    const expectedRead = 8 * Math.pow(0.5, elapsed / (15 * 60_000));
    assert.ok(
      Math.abs(faded.points[0].intensity - expectedRead) < 1e-5,
      `read fades with the default half-life: ${faded.points[0].intensity} vs ${expectedRead}`,
    );
    assert.equal(faded.points[0].updated_at, marked.point.updated_at, 'a read does not count as a change');

    const decayed = await c.call<{ changes: Change[] }>('stig_decay', { half_life_ms: 100 });
    assert.equal(decayed.changes.length, 1);
    const at = decayed.changes[0].point.updated_at;
    const expected = 8 * Math.pow(0.5, (at - marked.point.updated_at) / 100);
    assert.ok(
      Math.abs(decayed.changes[0].point.intensity - expected) < 1e-9,
      `${decayed.changes[0].point.intensity} vs ${expected}`,
    );
    assert.ok(decayed.changes[0].point.intensity < 8 / 4, 'at least two half-lives passed');

    const gone = await c.call<{ changes: Change[] }>('stig_decay', { half_life_ms: 1 });
    await new Promise((r) => setTimeout(r, 60));
    const evaporated = await c.call<{ changes: Change[] }>('stig_decay', { half_life_ms: 1 });
    assert.ok(gone.changes.length + evaporated.changes.length >= 1);
    assert.equal((await c.call<Snapshot>('stig_snapshot', {})).pointCount, 0, 'a negligible mark evaporates');
  } finally {
    await c.close();
  }
});

test('marks of a task follow its lifecycle: start_task marks its areas, complete_task clears them', async () => {
  const c = await connect(tempRepo(), ['--enable-orchestrator']);
  try {
    const wf = await c.call<{ workflow_id: string }>('start_workflow', { name: 'Lifecycle', description: 'd' });
    const started = await c.call<{ task_id: string }>('start_task', {
      workflow_id: wf.workflow_id,
      name: 'Edit auth',
      goal: 'g',
      areas: ['src/auth/**'],
    });
    await c.call('stig_mark', { node_id: 'docs/other.md', type: 'note', intensity: 1 });
    const during = await c.call<Snapshot>('stig_snapshot', {});
    assert.deepEqual(during.points.map((p) => [p.node_id, p.type]).sort(), [
      ['docs/other.md', 'note'],
      ['src/auth/**', `scope:${started.task_id}`],
    ]);
    await c.call('complete_task', { task_id: started.task_id, status: 'success', outcome: { summary: 'done' } });
    const afterwards = await c.call<Snapshot>('stig_snapshot', {});
    assert.deepEqual(
      afterwards.points.map((p) => p.node_id),
      ['docs/other.md'],
      'the ended task’s marks vanished',
    );
  } finally {
    await c.close();
  }
});

test('awards avoid overlapping write scopes by default, a person can override, and the award assigns the task', async () => {
  const repo = tempRepo(agentFiles);
  const a = await connect(repo, ['--enable-orchestrator']);
  const b = await connect(repo, ['--enable-orchestrator']);
  try {
    const t1 = await createTask(a, 'Auth rewrite');
    const t2 = await createTask(a, 'Login page');
    const t3 = await createTask(a, 'Docs');
    await a.call('stig_mark', { node_id: 'src/auth/login.ts', type: 'changed:task-99', intensity: 4 });

    const first = await a.call<Announce>('cnp_announce', {
      task_id: `task-${t1}`,
      writeScope: ['src/auth/**'],
      tags: ['backend'],
      idempotency_key: 'auth-1',
    });
    assert.equal(first.status, 'awarded');
    assert.equal(first.awarded_agent_id, 'alice', 'the agent with the skill bids lower');
    assert.equal(first.auto_bid_enabled, true);
    assert.deepEqual(first.bids.map((x) => [x.agent_id, x.kind, x.metadata.reason]).sort(), [
      ['alice', 'heuristic', 'auto'],
      ['bob', 'heuristic', 'auto'],
    ]);
    assert.ok(
      Number(first.bids[0].metadata.pheromone_pressure) > 1,
      'pressure on the task’s areas raises the factor of the busy penalty',
    );
    const replay = await a.call<Announce>('cnp_announce', {
      task_id: `task-${t1}`,
      writeScope: ['src/auth/**'],
      tags: ['backend'],
      idempotency_key: 'auth-1',
    });
    assert.equal(replay.idempotent, true);
    assert.equal(replay.call_id, first.call_id);
    assert.equal((await a.call<{ assigneeName: string | null }>('task_get', { id: t1 })).assigneeName, 'alice');

    const blocked = await b.call<Announce>('cnp_announce', {
      task_id: `task-${t2}`,
      writeScope: ['src/auth/login.ts'],
    });
    assert.equal(blocked.status, 'open');
    assert.equal(blocked.notAwardedReason, 'scope_conflict');
    assert.equal(blocked.conflicts[0].runningTaskId, `task-${t1}`);
    assert.deepEqual(blocked.conflicts[0].pairs, [{ left: 'src/auth/login.ts', right: 'src/auth/**' }]);
    const refused = await a.fail('cnp_award', { call_id: blocked.call_id });
    assert.equal(refused.data?.error, 'E-CNP-SCOPE-CONFLICT');

    const docs = await b.call<Announce>('cnp_announce', { task_id: `task-${t3}`, writeScope: ['docs/**'] });
    assert.equal(docs.status, 'awarded');
    assert.equal(docs.awarded_agent_id, 'bob', 'alice is busy: the busy penalty sends the next task to bob');

    const check = await b.call<{ call_id: string; agent_id: string; conflicts: Conflict[] }>('cnp_award', {
      call_id: blocked.call_id,
      allowOverlap: true,
    });
    assert.equal(check.conflicts[0].runningTaskId, `task-${t1}`, 'the override is visible in the answer');
    assert.equal((await b.call<{ assigneeName: string | null }>('task_get', { id: t2 })).assigneeName, check.agent_id);

    await a.call('task_update', { id: t1, status: 'cancelled' });
    const t4 = await createTask(a, 'Auth again');
    const freed = await a.call<Announce>('cnp_announce', {
      task_id: `task-${t4}`,
      writeScope: ['src/auth/session.ts'],
    });
    assert.equal(freed.status, 'awarded', 'an ended task no longer blocks its scope');

    const telemetry = await b.call<{
      telemetry_enabled: boolean;
      emissions: number;
      last_snapshot: { reason: string } | null;
    }>('cnp_watcher_telemetry', {});
    assert.equal(telemetry.telemetry_enabled, true);
    assert.ok(telemetry.emissions >= 1);
  } finally {
    await a.close();
    await b.close();
  }
});

test('two processes announcing overlapping tasks at once: exactly one is awarded', async () => {
  const repo = tempRepo(agentFiles);
  const a = await connect(repo, ['--enable-orchestrator']);
  const b = await connect(repo, ['--enable-orchestrator']);
  try {
    const t1 = await createTask(a, 'One');
    const t2 = await createTask(a, 'Two');
    const [x, y] = await Promise.all([
      a.call<Announce>('cnp_announce', { task_id: `task-${t1}`, writeScope: ['src/core/**'] }),
      b.call<Announce>('cnp_announce', { task_id: `task-${t2}`, writeScope: ['src/core/model.ts'] }),
    ]);
    assert.deepEqual([x.status, y.status].sort(), ['awarded', 'open']);
    assert.equal([x, y].find((r) => r.status === 'open')?.notAwardedReason, 'scope_conflict');
  } finally {
    await a.close();
    await b.close();
  }
});

test('kg_suggest_plan on a known playbook reports coverage exactly; a finished workflow becomes a plan', async () => {
  const c = await connect(tempRepo(), ['--enable-orchestrator']);
  try {
    const playbook = JSON.parse(
      readFileSync(path.join(__dirname, '../fixtures/scheduling/release-playbook.json'), 'utf8'),
    ) as { triples: unknown[] };
    const inserted = await c.call<{ created: number; total: number }>('kg_insert', { triples: playbook.triples });
    assert.equal(inserted.created, 18);
    const again = await c.call<{ created: number; unchanged: number }>('kg_insert', { triples: playbook.triples });
    assert.deepEqual([again.created, again.unchanged], [0, 18]);
    const s = await c.call<{
      coverage: unknown;
      rationale: string[];
      fragments: { nodes: { id: string; attributes: Record<string, unknown> }[] }[];
    }>('kg_suggest_plan', {
      goal: 'release',
      context: { preferred_sources: ['Playbook', 'ops'], exclude_tasks: ['smoke_test'], max_fragments: 2 },
    });
    assert.deepEqual(s.coverage, {
      total_tasks: 7,
      suggested_tasks: ['announce', 'build', 'changelog', 'freeze', 'legacy_audit', 'publish'],
      excluded_tasks: ['smoke_test'],
      missing_dependencies: [{ task: 'publish', dependencies: ['smoke_test'] }],
      unknown_dependencies: [{ task: 'legacy_audit', dependencies: ['compliance_check'] }],
    });
    assert.equal(s.rationale[0], "Plan 'release': 6/7 task(s) suggested.");
    assert.equal(s.fragments[0].nodes.find((n) => n.id === 'build')?.attributes.kg_goal, 'release');

    const page = await c.call<{ triples: { subject: string }[]; next_cursor: number | null }>('kg_query', {
      subject: 'task:*',
      predicate: 'depends_on',
    });
    assert.ok(page.triples.length >= 3);

    const wf = await c.call<{ workflow_id: string }>('start_workflow', { name: 'Add OAuth login', description: 'd' });
    const one = await c.call<{ task_id: string }>('start_task', {
      workflow_id: wf.workflow_id,
      name: 'Provider config',
      goal: 'g',
    });
    await c.call('complete_task', { task_id: one.task_id, status: 'success', outcome: { summary: 's' } });
    const two = await c.call<{ task_id: string }>('start_task', {
      workflow_id: wf.workflow_id,
      name: 'Callback route',
      goal: 'g',
    });
    await c.call('complete_task', { task_id: two.task_id, status: 'partial_success', outcome: { summary: 's' } });
    const plan = await c.call<{
      coverage: { total_tasks: number; suggested_tasks: string[] };
      fragments: { nodes: { label?: string; attributes: Record<string, unknown> }[] }[];
    }>('kg_suggest_plan', {
      goal: 'add-oauth-login',
    });
    assert.deepEqual(plan.coverage.suggested_tasks, [one.task_id, two.task_id].sort());
    assert.equal(plan.coverage.total_tasks, 2);
    assert.deepEqual(
      plan.fragments[0].nodes.map((n) => n.attributes.kg_source),
      ['workflow', 'workflow'],
    );
    const exported = await c.call<{ total: number }>('kg_export', {});
    assert.ok(exported.total > 18);
  } finally {
    await c.close();
  }
});
