// The Tasks tree says whether a person answered a completion's review request, on both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TaskTreeQueries } from '../../../../src/core/tasks/taskTree';
import { TaskReviewService } from '../../../../src/core/tasks/taskReviews';
import { engineCases } from '../../store/engines/engineKit';

const at = (n: number): string => `2026-11-24T10:00:${String(n).padStart(2, '0')}.000Z`;
const clock = { now: () => new Date('2026-11-24T11:00:00.000Z') };

for (const engineCase of engineCases) {
  test(
    `the tree marks a completion a person reviewed on ${engineCase.name}; a later completion asks again`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const add = (title: string, n: number) =>
          engine.write((tx) =>
            tx.insert(
              'INSERT INTO tasks (title, status, outcome, completed_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
              [title, 'done', JSON.stringify({ summary: 's', manual_review_needed: true }), at(n), at(n), at(n)],
            ),
          );
        const reviewed = await add('Reviewed', 1);
        const waiting = await add('Waiting', 2);
        await new TaskReviewService(engine, clock).review({ taskId: reviewed, verdict: 'approved', by: 'ana' });
        const tree = new TaskTreeQueries(engine);
        const flags = async () =>
          Object.fromEntries(
            (await tree.topTasks(null)).map((t) => [t.task.title, [t.completionReviewed, t.childCount]]),
          );
        assert.deepEqual(await flags(), { Reviewed: [true, 0], Waiting: [false, 0] });

        await engine.write((tx) => tx.run('UPDATE tasks SET completed_at = ? WHERE id = ?', [at(9), reviewed]));
        assert.deepEqual(
          await flags(),
          { Reviewed: [false, 0], Waiting: [false, 0] },
          'completed again: its review request is open again',
        );
        assert.ok(waiting > reviewed);
      } finally {
        await ledger.dispose();
      }
    },
  );
}
