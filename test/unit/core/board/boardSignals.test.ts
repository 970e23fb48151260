// What a Board card says beyond its column, on both engines: the cost of the task's runs, its
// pending handoffs, the warning when two running tasks may touch the same files, a person's
// review taking a card out of "needs a person", and the Explorer's pressure on files and folders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoardQueries } from '../../../../src/core/board/boardQueries';
import { costByTask, pendingHandoffs } from '../../../../src/core/board/boardReads';
import type { LedgerEngine } from '../../../../src/core/ports/store';
import { createSchedulingServices } from '../../../../src/core/scheduling/schedulingServices';
import { scopeConflicts } from '../../../../src/core/scheduling/startGates';
import { TaskReviewService } from '../../../../src/core/tasks/taskReviews';
import { LedgerError } from '../../../../src/core/errors';
import { pendingHandoffRows } from '../../../../src/core/runtime/pm/pendingHandoffs';
import { engineCases } from '../../store/engines/engineKit';

const at = (n: number): string => `2026-11-23T10:00:${String(n).padStart(2, '0')}.000Z`;
const clock = { now: () => new Date('2026-11-23T11:00:00.000Z') };

async function addTask(
  engine: LedgerEngine,
  t: {
    title: string;
    status: string;
    areas?: string[];
    assignee?: string;
    outcome?: object;
    completedAt?: string;
    n: number;
  },
): Promise<number> {
  return engine.write((tx) =>
    tx.insert(
      'INSERT INTO tasks (title, status, areas, assignee, outcome, completed_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [
        t.title,
        t.status,
        JSON.stringify(t.areas ?? []),
        t.assignee ?? null,
        t.outcome ? JSON.stringify(t.outcome) : null,
        t.completedAt ?? null,
        at(t.n),
        at(t.n),
      ],
    ),
  );
}

async function addRun(engine: LedgerEngine, taskId: number | null, cost: number | null): Promise<void> {
  await engine.write((tx) =>
    tx.insert(
      "INSERT INTO execution_logs (task_id, agent, status, started_at, cost_usd) VALUES (?, 'coder', 'completed', ?, ?)",
      [taskId, at(1), cost],
    ),
  );
}

async function addHandoff(
  engine: LedgerEngine,
  taskId: number,
  from: string,
  to: string | null,
  status = 'pending',
): Promise<void> {
  await engine.write((tx) =>
    tx.insert(
      'INSERT INTO handoffs (task_id, from_agent, to_agent, summary, status, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      [taskId, from, to, 'over to you', status, at(2)],
    ),
  );
}

for (const engineCase of engineCases) {
  test(
    `cost and pending handoffs on ${engineCase.name}: one query each, summed per task, accepted handoffs left out`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const paid = await addTask(engine, { title: 'Paid', status: 'done', n: 1 });
        const unknown = await addTask(engine, { title: 'No cost reported', status: 'in_progress', n: 2 });
        const free = await addTask(engine, { title: 'Never ran', status: 'open', n: 3 });
        await addRun(engine, paid, 0.0421);
        await addRun(engine, paid, 0.01);
        await addRun(engine, paid, null);
        await addRun(engine, unknown, null);
        await addRun(engine, null, 5);
        await addHandoff(engine, unknown, 'coder', 'reviewer');
        await addHandoff(engine, unknown, 'reviewer', null);
        await addHandoff(engine, paid, 'coder', 'reviewer', 'accepted');

        const costs = await engine.read((db) => costByTask(db));
        assert.deepEqual([...costs], [[paid, 0.0521]], 'the sum of the reported costs; tasks without one absent');
        assert.deepEqual([...(await engine.read((db) => costByTask(db, [unknown, free])))], [], 'only the tasks asked');
        assert.deepEqual([...(await engine.read((db) => costByTask(db, [paid])))], [[paid, 0.0521]]);
        const handoffs = await engine.read((db) => pendingHandoffs(db));
        assert.deepEqual([...handoffs.keys()], [unknown]);
        assert.deepEqual(
          handoffs.get(unknown)!.map((h) => [h.from, h.to]),
          [
            ['coder', 'reviewer'],
            ['reviewer', null],
          ],
        );
        assert.match(handoffs.get(unknown)![0].id, /^handoff-\d+$/);
        // The one read every face shapes (get_pending_handoffs, the Agents view, the Board).
        const rows = await engine.read((db) => pendingHandoffRows(db));
        assert.deepEqual(
          rows.map((r) => [r.task_id, r.task_title, r.from_agent, r.to_agent]),
          [
            [unknown, 'No cost reported', 'coder', 'reviewer'],
            [unknown, 'No cost reported', 'reviewer', null],
          ],
        );
        assert.deepEqual(
          (await engine.read((db) => pendingHandoffRows(db, 'coder'))).map((r) => r.from_agent),
          ['reviewer'],
          'for an agent: addressed to it or to nobody',
        );

        const { cards } = await new BoardQueries(engine).board();
        const card = (id: number) => cards.find((c) => c.taskId === id)!;
        assert.equal(card(paid).cost, 0.0521);
        assert.equal(card(unknown).cost, null, 'runs without a cost leave it blank');
        assert.equal(card(free).cost, null);
        assert.deepEqual(
          card(unknown).handoffs.map((h) => `${h.from}>${h.to ?? '*'}`),
          ['coder>reviewer', 'reviewer>*'],
        );
        assert.deepEqual(card(paid).handoffs, [], 'an accepted handoff is not pending');
      } finally {
        await ledger.dispose();
      }
    },
  );

  test(
    `pending handoffs and "needs a person" on ${engineCase.name}: to nobody or to a person it waits for a person, to an agent it does not`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        await engine.write(async (tx) => {
          await tx.run(
            "INSERT INTO agents (name, file, client, definition, indexed_at) VALUES ('reviewer', '.agent-ledger/agents/reviewer.md', 'claude', '{}', ?)",
            [at(0)],
          );
          const project = await tx.insert(
            "INSERT INTO projects (name, working_directory, created_at, updated_at) VALUES ('web', '.', ?, ?)",
            [at(0), at(0)],
          );
          await tx.run('INSERT INTO project_agents (project_id, agent, assigned_at) VALUES (?, ?, ?)', [
            project,
            'tester',
            at(0),
          ]);
        });
        const toAgent = await addTask(engine, { title: 'To a defined agent', status: 'in_progress', n: 1 });
        const toMember = await addTask(engine, { title: 'To a project agent', status: 'open', n: 2 });
        const toNobody = await addTask(engine, { title: 'To nobody', status: 'in_progress', n: 3 });
        const toPerson = await addTask(engine, { title: 'To a person', status: 'open', n: 4 });
        const closed = await addTask(engine, { title: 'Done already', status: 'done', n: 5 });
        const accepted = await addTask(engine, { title: 'Accepted', status: 'open', n: 6 });
        await addHandoff(engine, toAgent, 'coder', 'reviewer');
        await addHandoff(engine, toMember, 'coder', 'tester');
        await addHandoff(engine, toNobody, 'coder', null);
        await addHandoff(engine, toPerson, 'coder', 'alice');
        await addHandoff(engine, closed, 'coder', null);
        await addHandoff(engine, accepted, 'coder', null, 'accepted');

        const { cards } = await new BoardQueries(engine).board();
        const card = (id: number) => cards.find((c) => c.taskId === id)!;
        assert.equal(card(toAgent).column, 'in_progress', 'an agent takes it up');
        assert.equal(card(toMember).column, 'ready', 'an agent of a project takes it up');
        assert.equal(card(toNobody).column, 'needs_person');
        assert.match(card(toNobody).reason ?? '', /^handoff-\d+ from coder names no agent: choose who continues$/);
        assert.equal(card(toPerson).column, 'needs_person');
        assert.match(card(toPerson).reason ?? '', /^handoff-\d+ from coder waits for alice$/);
        assert.equal(card(closed).column, 'done', 'a finished task stays where it is');
        assert.equal(card(accepted).column, 'ready', 'an accepted handoff no longer waits');
        assert.equal(card(toNobody).handoffs.length, 1, 'the card still shows the handoff');
      } finally {
        await ledger.dispose();
      }
    },
  );

  test(
    `overlap warning on ${engineCase.name}: the start gate's rule — declared scopes of tasks someone works on, never a ** scope or a mark`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const scheduling = createSchedulingServices(
          engine,
          () => [],
          () => Date.parse('2026-11-23T11:00:00.000Z'),
        );
        const auth = await addTask(engine, {
          title: 'Rework auth',
          status: 'in_progress',
          areas: ['src/auth/**'],
          assignee: 'coder',
          n: 1,
        });
        const login = await addTask(engine, {
          title: 'Fix login',
          status: 'in_progress',
          areas: ['src/auth/login.ts'],
          assignee: 'fixer',
          n: 2,
        });
        const docs = await addTask(engine, { title: 'Docs', status: 'in_progress', areas: ['docs/**'], n: 3 });
        const ui = await addTask(engine, { title: 'UI', status: 'in_progress', n: 4 });
        const ended = await addTask(engine, { title: 'Old docs', status: 'done', areas: ['docs/**'], n: 5 });
        // Two tasks of the built-in coder, whose write scope is the whole workspace: it declares nothing.
        const everywhere = JSON.stringify([{ agent: 'coder', write: ['**/*'], exclude: [] }]);
        const anyA = await addTask(engine, { title: 'Any A', status: 'in_progress', n: 6 });
        const anyTwo = await addTask(engine, { title: 'Any B', status: 'in_progress', n: 7 });
        await engine.write(async (tx) => {
          await tx.run('UPDATE tasks SET write_scope = ? WHERE id IN (?, ?)', [everywhere, anyA, anyTwo]);
        });
        // The UI task declared nothing, but it changed a file under docs/ (a `changed:` mark): not a declared scope.
        await scheduling.stigmergy.markTask(ui, ['docs/guide.md'], 'changed');
        const board = new BoardQueries(engine, scheduling.stigmergy);
        const { cards } = await board.board();
        const card = (id: number) => cards.find((c) => c.taskId === id)!;
        assert.deepEqual(card(auth).overlaps, [
          { task: `task-${login}`, title: 'Fix login', agent: 'fixer', paths: ['src/auth/**', 'src/auth/login.ts'] },
        ]);
        assert.deepEqual(card(login).overlaps, [
          { task: `task-${auth}`, title: 'Rework auth', agent: 'coder', paths: ['src/auth/login.ts', 'src/auth/**'] },
        ]);
        assert.deepEqual(card(docs).overlaps, [], 'a mark is not a declared scope');
        assert.deepEqual(card(ui).overlaps, []);
        assert.deepEqual(card(anyA).overlaps, [], 'a ** scope declares nothing: no amber card');
        assert.deepEqual(card(anyTwo).overlaps, []);
        assert.deepEqual(card(ended).overlaps, [], 'an ended task does not run');
        // The same answer as the start gate, card by card.
        for (const id of [auth, login, docs, ui, anyA, anyTwo]) {
          const gate = await engine.read((db) => scopeConflicts(db, id));
          assert.deepEqual(
            card(id)
              .overlaps.map((o) => o.task)
              .sort(),
            gate.conflicts.map((c) => c.runningTaskId).sort(),
            `task-${id}: the Board warns where the start gate refuses`,
          );
        }
        // The login task ends: the warning goes from the auth card.
        await engine.write((tx) => tx.run("UPDATE tasks SET status = 'done' WHERE id = ?", [login]));
        assert.deepEqual((await board.board()).cards.find((c) => c.taskId === auth)!.overlaps, []);
      } finally {
        await ledger.dispose();
      }
    },
  );

  test(
    `Explorer pressure on ${engineCase.name}: marks rolled up to folders, with the running tasks that put them`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const scheduling = createSchedulingServices(
          engine,
          () => [],
          () => Date.parse('2026-11-23T11:00:00.000Z'),
        );
        const a = await addTask(engine, { title: 'Rework auth', status: 'in_progress', assignee: 'coder', n: 1 });
        const b = await addTask(engine, { title: 'Fix login', status: 'in_progress', n: 2 });
        await scheduling.stigmergy.markTask(a, ['src/auth/**']);
        await scheduling.stigmergy.markTask(b, ['src/auth/login.ts'], 'changed');
        await scheduling.stigmergy.mark({ node_id: 'src/ui/app.ts', type: 'explore', intensity: 1 });
        const queries = new BoardQueries(engine, scheduling.stigmergy);
        const pressure = await queries.pressure();
        assert.equal(await queries.pressure(), pressure, 'the field did not change: the same roll-up');
        const of = (p: string) => pressure.find((x) => x.path === p);
        assert.deepEqual(of('src/auth/login.ts')?.tasks, [
          { key: `task-${b}`, title: 'Fix login', agent: null, status: 'in_progress' },
        ]);
        assert.deepEqual(of('src/auth/login.ts')?.changedBy, [`task-${b}`]);
        assert.deepEqual(of('src/auth')?.changedBy, [`task-${b}`], 'the glob of task a declares, it changes nothing');
        assert.deepEqual(
          of('src/auth')?.tasks.map((t) => t.key),
          [`task-${a}`, `task-${b}`],
          'the folder: the glob on it and the file under it',
        );
        assert.deepEqual(
          of('src')?.tasks.map((t) => [t.key, t.title, t.agent]),
          [
            [`task-${a}`, 'Rework auth', 'coder'],
            [`task-${b}`, 'Fix login', null],
          ],
        );
        assert.deepEqual(of('src')?.others, ['explore']);
        assert.equal(of('src/ui/app.ts')?.tasks.length, 0);
        assert.equal(of('docs'), undefined);
        // A task ends: its marks leave the Explorer.
        await engine.write((tx) => tx.run("UPDATE tasks SET status = 'done' WHERE id = ?", [b]));
        const after = await queries.pressure();
        assert.equal(
          after.find((x) => x.path === 'src/auth/login.ts'),
          undefined,
        );
        assert.deepEqual(
          after.find((x) => x.path === 'src')?.tasks.map((t) => t.key),
          [`task-${a}`],
        );
        // A new mark rolls up again.
        await scheduling.stigmergy.markTask(a, ['docs/notes.md'], 'changed');
        assert.deepEqual(
          (await queries.pressure()).find((x) => x.path === 'docs')?.tasks.map((t) => t.key),
          [`task-${a}`],
        );
        // A task renamed: the next change shows its new title on every path, the ones it did not touch too.
        await engine.write((tx) => tx.run("UPDATE tasks SET title = 'Rework auth v2' WHERE id = ?", [a]));
        await scheduling.stigmergy.markTask(a, ['lib/x.ts'], 'changed');
        const renamed = await queries.pressure();
        assert.equal(renamed.find((x) => x.path === 'src/auth')?.tasks[0].title, 'Rework auth v2');
        const fresh = new BoardQueries(
          engine,
          createSchedulingServices(
            engine,
            () => [],
            () => Date.parse('2026-11-23T11:00:00.000Z'),
          ).stigmergy,
        );
        assert.deepEqual(renamed, await fresh.pressure(), 'the kept answer is the one a new Board gives');
      } finally {
        await ledger.dispose();
      }
    },
  );

  test(
    `a person's review takes the card out of "needs a person" on ${engineCase.name}; a new request brings it back`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const reviews = new TaskReviewService(engine, clock);
        const board = new BoardQueries(engine);
        const column = async (id: number) => (await board.board()).cards.find((c) => c.taskId === id)!.column;
        const audited = await addTask(engine, {
          title: 'Audit keys',
          status: 'done',
          outcome: { summary: 's', manual_review_needed: true, manual_review_reason: 'keys' },
          completedAt: at(5),
          n: 1,
        });
        const asks = await addTask(engine, { title: 'Migrate', status: 'in_progress', n: 2 });
        const quiet = await addTask(engine, { title: 'Quiet', status: 'in_progress', n: 3 });
        const askReview = (taskId: number, text: string) =>
          engine.write((tx) =>
            tx.insert(
              'INSERT INTO issues (task_id, type, description, resolution, requires_human_review, created_at) VALUES (?, ?, ?, ?, 1, ?)',
              [taskId, 'other', text, 'asked', at(6)],
            ),
          );
        await askReview(asks, 'Drop the old column?');
        assert.equal(await column(audited), 'needs_person');
        assert.equal(await column(asks), 'needs_person');

        const seq = await engine.read((db) => db.get<{ n: number }>('SELECT MAX(seq) AS n FROM events'));
        const done = await reviews.review({ taskId: audited, verdict: 'approved', note: ' looks right ', by: 'ann' });
        assert.deepEqual(
          [done.taskId, done.verdict, done.note, done.reviewedBy, done.answered],
          [`task-${audited}`, 'approved', 'looks right', 'ann', { issues: [], completion: true }],
        );
        assert.equal(await column(audited), 'done', 'reviewed: back in its own column');
        const ev = await engine.read((db) =>
          db.all<{ kind: string; task_id: number }>('SELECT kind, task_id FROM events WHERE seq > ?', [
            Number(seq?.n ?? 0),
          ]),
        );
        assert.deepEqual(
          ev.map((e) => [e.kind, Number(e.task_id)]),
          [['task.reviewed', audited]],
        );

        const dismissed = await reviews.review({ taskId: asks, verdict: 'dismissed' });
        assert.equal(dismissed.answered.issues.length, 1);
        assert.equal(await column(asks), 'in_progress');
        await askReview(asks, 'And the index?');
        assert.equal(await column(asks), 'needs_person', 'a new request asks again');

        // Completed again with a new outcome that asks: the old review does not cover it.
        await engine.write((tx) => tx.run('UPDATE tasks SET completed_at = ? WHERE id = ?', [at(9), audited]));
        assert.equal(await column(audited), 'needs_person');

        // Refusals: nothing to review, no such task, a bad verdict; nothing written.
        const count = async () =>
          Number((await engine.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM task_reviews')))?.n);
        const before = await count();
        await assert.rejects(reviews.review({ taskId: quiet, verdict: 'approved' }), (e: unknown) =>
          LedgerError.is(e, 'InvalidStatus'),
        );
        await assert.rejects(reviews.review({ taskId: 9999, verdict: 'approved' }), (e: unknown) =>
          LedgerError.is(e, 'TaskNotFound'),
        );
        await assert.rejects(reviews.review({ taskId: asks, verdict: 'maybe' as 'approved' }), (e: unknown) =>
          LedgerError.is(e, 'ValidationError'),
        );
        assert.equal(await count(), before);
      } finally {
        await ledger.dispose();
      }
    },
  );
}
