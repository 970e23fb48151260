// The scheduling services (stigmergy, contract-net, knowledge graph) on both engines, with a
// clock the test moves: exact decay, atomic batches, conflict-aware awards, the watcher's
// counters, and plans fed from finished workflows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSchedulingServices } from '../../../../src/core/scheduling/schedulingServices';
import type { BidderDefinition } from '../../../../src/core/scheduling/contractNet/contractNetService';
import type { LedgerEngine } from '../../../../src/core/ports/store';
import { LedgerError } from '../../../../src/core/errors';
import { engineCases } from '../../store/engines/engineKit';

const agents: BidderDefinition[] = [
  { name: 'alice', scope: { write: ['src/**'], exclude: [] }, config: { tags: ['backend'] } },
  { name: 'bob', scope: { write: ['src/**', 'docs/**'], exclude: [] } },
];

async function addTask(
  engine: LedgerEngine,
  title: string,
  status = 'open',
  workflowId: number | null = null,
  areas: string[] = [],
): Promise<number> {
  return engine.write((tx) =>
    tx.insert(
      'INSERT INTO tasks (workflow_id, title, status, areas, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
      [workflowId, title, status, JSON.stringify(areas), 't', 't'],
    ),
  );
}

async function eventCount(engine: LedgerEngine, entity: string): Promise<number> {
  const row = await engine.read((db) =>
    db.get<{ n: number }>('SELECT COUNT(*) AS n FROM events WHERE entity = ?', [entity]),
  );
  return Number(row?.n ?? 0);
}

for (const engineCase of engineCases) {
  test(
    `stigmergy on ${engineCase.name}: atomic batches, exact decay, marks of ended tasks`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        let now = 1_000_000;
        const engine = await ledger.open();
        const s = createSchedulingServices(
          engine,
          () => agents,
          () => now,
          { halfLifeMs: 1000 },
        );
        const other = createSchedulingServices(
          await ledger.open(),
          () => agents,
          () => now,
          { halfLifeMs: 1000 },
        );
        await s.stigmergy.mark({ node_id: 'src/a.ts', type: 'x', intensity: 4 });
        const events = await eventCount(engine, 'stigmergy');
        const err = await s.stigmergy
          .batch([
            { node_id: 'src/a.ts', type: 'x', intensity: 1 },
            { node_id: 'src/b.ts', type: ' ', intensity: 1 },
            { node_id: 'src/c.ts', type: 'y', intensity: -2 },
          ])
          .catch((e: unknown) => e);
        assert.ok(err instanceof LedgerError);
        assert.equal(err.data?.error, 'E-BULK-PARTIAL');
        assert.deepEqual(
          (err.data?.failures as { index: number; code: string }[]).map((f) => [f.index, f.code]),
          [
            [1, 'E-STIG-TYPE'],
            [2, 'E-STIG-INTENSITY'],
          ],
        );
        assert.equal(await eventCount(engine, 'stigmergy'), events, 'a refused batch appends no event');
        await assert.rejects(
          s.stigmergy.mark({ node_id: 'src/a.ts', type: '', intensity: 1 }),
          (e: LedgerError) => e.data?.error === 'E-STIG-TYPE',
        );
        const snap = await other.stigmergy.snapshot();
        assert.deepEqual(snap.points, [{ node_id: 'src/a.ts', type: 'x', intensity: 4, updated_at: 1_000_000 }]);

        now += 1000;
        assert.equal(
          (await other.stigmergy.snapshot()).points[0].intensity,
          2,
          'one half-life later a read shows half',
        );
        const added = await s.stigmergy.mark({ node_id: 'src/a.ts', type: 'x', intensity: 1 });
        assert.equal(added.point.intensity, 3, 'a mark adds to the faded intensity, old pressure is not revived');
        now += 500;
        const decayed = await s.stigmergy.decay(250);
        assert.equal(decayed[0].point.intensity, 3 / 4, 'stig_decay halves per half-life since the last change');

        const task = await addTask(engine, 'running', 'in_progress');
        await s.taskStarted(task, ['src/auth/**', 'docs/**']);
        assert.equal((await s.stigmergy.snapshot()).pointCount, 3);
        const pressure = await s.stigmergy.pressureOn(['src/auth/login.ts']);
        assert.deepEqual(
          pressure.nodes.map((n) => n.types),
          [[`scope:task-${task}`]],
        );
        assert.equal(
          (await s.stigmergy.pressureOn(['src/auth/login.ts'], task)).total,
          0,
          'a task’s own marks are left out',
        );
        await engine.write((tx) => tx.run("UPDATE tasks SET status = 'done' WHERE id = ?", [task]));
        assert.equal(
          (await other.stigmergy.snapshot()).pointCount,
          1,
          'the marks of a task that ended stop counting at once',
        );
        await s.taskEnded(task);
        const rows = await engine.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM stig_points'));
        assert.equal(Number(rows?.n), 1, 'and are deleted');
      } finally {
        await ledger.dispose();
      }
    },
  );

  test(
    `contract-net on ${engineCase.name}: conflict-aware awards, busy penalty, override, watcher counters`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        let now = 5_000_000;
        const engine = await ledger.open();
        const s = createSchedulingServices(
          engine,
          () => agents,
          () => now,
        );
        const running = await addTask(engine, 'running', 'in_progress', null, ['src/auth/**']);
        const t1 = await addTask(engine, 'login');
        const t2 = await addTask(engine, 'api');
        const t3 = await addTask(engine, 'docs');
        const base = { tags: [] as string[], award: true, allowOverlap: false };

        const conflict = await s.contractNet.announce({
          ...base,
          task_id: `task-${t1}`,
          writeScope: ['src/auth/login.ts'],
        });
        assert.equal(conflict.notAwardedReason, 'scope_conflict');
        assert.deepEqual(
          conflict.conflicts.map((c) => c.runningTaskId),
          [`task-${running}`, `task-${running}`],
        );
        const check = await s.contractNet.checkConflicts(t1, ['src/auth/login.ts']);
        assert.deepEqual(
          check.conflicts.map((c) => c.pairs),
          [[{ left: 'src/auth/login.ts', right: 'src/auth/**' }]],
        );
        assert.deepEqual((await s.contractNet.checkConflicts(t2, ['src/api/**'])).conflicts, []);

        const api = await s.contractNet.announce({
          ...base,
          task_id: `task-${t2}`,
          writeScope: ['src/api/**'],
          tags: ['backend'],
        });
        assert.equal(api.awarded_agent_id, 'alice');
        const docs = await s.contractNet.announce({ ...base, task_id: String(t3), writeScope: ['docs/**'] });
        assert.equal(docs.awarded_agent_id, 'bob', 'alice can not write docs/**');
        const assignee = await engine.read((db) =>
          db.get<{ assignee: string }>('SELECT assignee FROM tasks WHERE id = ?', [t3]),
        );
        assert.equal(assignee?.assignee, 'bob');
        const awarded = await engine.read((db) =>
          db.all<{ payload: string }>("SELECT payload FROM events WHERE kind = 'cnp_call_awarded' ORDER BY seq"),
        );
        assert.deepEqual(
          awarded.map((e) =>
            (({ cat, msg, agent_id }) => [cat, msg, agent_id])(JSON.parse(e.payload) as Record<string, string>),
          ),
          [
            ['contract_net', 'cnp_call_awarded', 'alice'],
            ['contract_net', 'cnp_call_awarded', 'bob'],
          ],
        );

        await assert.rejects(
          s.contractNet.announce({ ...base, task_id: `task-${t2}`, writeScope: ['src/api/**'] }),
          (e: LedgerError) => e.data?.error === 'E-CNP-ANNOUNCED' && e.data?.callId === api.call_id,
          'a task with an awarded call is not put out for bids again',
        );
        const forced = await s.contractNet.award({ call_id: conflict.call_id, allowOverlap: true });
        assert.equal(forced.conflicts[0].runningTaskId, `task-${running}`);
        await assert.rejects(
          s.contractNet.award({ call_id: conflict.call_id, agent_id: 'bob', allowOverlap: false }),
          (e: LedgerError) => e.data?.error === 'E-CNP-AWARDED',
        );

        const t4 = await addTask(engine, 'more api');
        const deferred = await s.contractNet.announce({
          ...base,
          task_id: `task-${t4}`,
          writeScope: ['src/api/v2/**'],
          award: false,
        });
        assert.equal(deferred.notAwardedReason, 'deferred');
        await assert.rejects(
          s.contractNet.award({ call_id: deferred.call_id, allowOverlap: false }),
          (e: LedgerError) => e.data?.error === 'E-CNP-SCOPE-CONFLICT',
        );
        await engine.write((tx) => tx.run("UPDATE tasks SET status = 'done' WHERE id = ?", [t2]));
        await s.taskEnded(t2);
        const bid = await s.contractNet.bid({ call_id: deferred.call_id, agent_id: 'bob', cost: 1 });
        assert.equal(bid.bids.find((b) => b.agent_id === 'bob')?.kind, 'manual');
        const won = await s.contractNet.award({ call_id: deferred.call_id, allowOverlap: false });
        assert.equal(won.agent_id, 'bob', 'the manual bid is cheapest once the api task ended');

        const first = await s.contractNet.telemetry();
        assert.equal(first.telemetry_enabled, true);
        const emissions = first.emissions;
        const t5 = await addTask(engine, 'open call');
        const open = await s.contractNet.announce({
          ...base,
          task_id: `task-${t5}`,
          writeScope: ['src/util/**'],
          award: false,
        });
        const pressureBefore = open.bids[0].metadata.pheromone_pressure;
        await s.stigmergy.mark({ node_id: 'src/util/x.ts', type: 'changed:task-999', intensity: 5 });
        await s.stigmergy.mark({ node_id: 'src/util/y.ts', type: 'changed:task-999', intensity: 5 });
        now += 100;
        const after = await s.contractNet.telemetry();
        assert.equal(after.emissions, emissions + 1);
        assert.equal(after.last_snapshot?.reason, 'flush');
        assert.equal(after.last_snapshot?.received_updates, 2);
        assert.equal(after.last_snapshot?.coalesced_updates, 1);
        assert.equal(after.last_snapshot?.flushes, 1);
        assert.equal(
          after.last_snapshot?.applied_refreshes,
          1,
          'no call was open when the watcher started; one flush refreshed them',
        );
        assert.equal(after.last_emitted_at_ms, now);
        const refreshed = await s.contractNet.refreshBounds({ call_id: open.call_id });
        assert.ok(
          refreshed.pheromone_bounds && refreshed.pheromone_bounds.normalisation_ceiling > 4.99,
          'the ceiling is the most marked node of the call’s areas',
        );
        assert.equal(refreshed.auto_bid_refreshed, true);
        const call = await s.contractNet.bid({ call_id: open.call_id, agent_id: 'alice', cost: 50 });
        const auto = call.bids.find((b) => b.agent_id === 'bob');
        assert.equal(auto?.metadata.reason, 'auto_refresh');
        assert.ok(
          Number(auto?.metadata.pheromone_pressure) > Number(pressureBefore),
          'pressure on the call’s areas raised the factor',
        );
        const watcherEvents = await engine.read((db) =>
          db.all<{ payload: string }>(
            "SELECT payload FROM events WHERE entity = 'contract_net' AND kind = 'cnp_watcher_telemetry' ORDER BY seq",
          ),
        );
        assert.equal(watcherEvents.length, after.emissions);
        assert.deepEqual(
          (({ cat, msg }) => ({ cat, msg }))(
            JSON.parse(watcherEvents[watcherEvents.length - 1].payload) as { cat: string; msg: string },
          ),
          { cat: 'contract_net', msg: 'cnp_watcher_telemetry' },
        );
      } finally {
        await ledger.dispose();
      }
    },
  );

  test(
    `knowledge graph on ${engineCase.name}: inserts, finished workflows become plans once`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const now = 9_000_000;
        const engine = await ledger.open();
        const s = createSchedulingServices(
          engine,
          () => agents,
          () => now,
        );
        const first = await s.knowledge.insert([
          { subject: 'launch', predicate: 'includes', object: 'design', source: 'playbook' },
          { subject: 'launch', predicate: 'includes', object: 'design', source: 'playbook' },
          { subject: 'launch', predicate: 'includes', object: 'build', source: 'playbook', confidence: 0.5 },
          { subject: 'task:build', predicate: 'depends_on', object: 'design' },
        ]);
        assert.deepEqual([first.created, first.unchanged, first.total], [3, 1, 3]);
        assert.equal(first.inserted[0].id, first.inserted[1].id);
        const updated = await s.knowledge.insert([
          { subject: 'launch', predicate: 'includes', object: 'build', source: 'playbook', confidence: 0.9 },
        ]);
        assert.deepEqual(
          [updated.updated, updated.inserted[0].revision, updated.inserted[0].id],
          [1, 1, first.inserted[2].id],
        );
        await assert.rejects(
          s.knowledge.insert([
            { subject: 'a', predicate: 'b', object: 'c' },
            { subject: ' ', predicate: 'b', object: 'c' },
          ]),
          (e: LedgerError) => e.data?.error === 'E-KG-BAD-TRIPLE',
        );

        const wf = await engine.write((tx) =>
          tx.insert('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', ['Ship it', 't', 't']),
        );
        const a = await addTask(engine, 'Write code', 'done', wf);
        const b = await addTask(engine, 'Review', 'done', wf);
        const c = await addTask(engine, 'Abandoned', 'cancelled', wf);
        await engine.write(async (tx) => {
          await tx.run('INSERT INTO plan_graphs (graph_id, version, created_at, updated_at) VALUES (?, 1, 1, 1)', [
            `wf-${wf}`,
          ]);
          const graph = {
            edges: [
              { from: `task-${a}`, to: `task-${b}`, label: 'depends_on' },
              { from: `task-${c}`, to: `task-${b}`, label: 'depends_on' },
            ],
          };
          await tx.run('INSERT INTO plan_graph_versions (graph_id, version, graph, committed_at) VALUES (?, 1, ?, 1)', [
            `wf-${wf}`,
            JSON.stringify(graph),
          ]);
        });
        const plan = await s.knowledge.suggestPlan('ship-it');
        assert.deepEqual(plan.coverage, {
          total_tasks: 2,
          suggested_tasks: [`task-${a}`, `task-${b}`],
          excluded_tasks: [],
          missing_dependencies: [],
          unknown_dependencies: [],
        });
        assert.deepEqual(
          plan.fragments[0].edges.map((e) => [e.from.nodeId, e.to.nodeId]),
          [[`task-${a}`, `task-${b}`]],
        );
        assert.equal(await s.knowledge.feedFromLedger(), 0, 'a workflow is fed once until it changes');
        const excluded = await s.knowledge.suggestPlan('ship-it', { exclude_tasks: [`task-${a}`] });
        assert.deepEqual(excluded.coverage.missing_dependencies, [{ task: `task-${b}`, dependencies: [`task-${a}`] }]);
        const page = await s.knowledge.query({ predicate: 'includes' }, { limit: 2 });
        assert.equal(page.triples.length, 2);
        const next = await s.knowledge.query({ predicate: 'includes' }, { limit: 10, cursor: page.next_cursor ?? 0 });
        assert.equal(next.triples.length, 2, 'launch has 2 tasks, the workflow 2: four includes in all');
        const all = await s.knowledge.export({});
        assert.equal(all.triples.length, all.total);
      } finally {
        await ledger.dispose();
      }
    },
  );
}
