// What a Board card says first: why a person is needed, then a hold, open dependencies of a task
// already in progress, the runner's reason and overlaps — in that order, so a card that shows one
// line shows the one that matters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boardCards } from '../../../../src/core/board/boardModel';
import type { BoardTaskRow } from '../../../../src/core/board/boardModel';
import { createServices } from '../../../../src/app/services';
import { tempDir } from '../../../helpers/tmp';

function row(id: number, status: string, extra: Partial<BoardTaskRow> = {}): BoardTaskRow {
  return {
    id,
    title: `Task ${id}`,
    status,
    result: null,
    assignee: 'coder',
    lastMilestone: null,
    progress: null,
    workflow: null,
    manualReview: null,
    reviewIssue: null,
    session: null,
    cost: null,
    handoffs: [],
    review: null,
    completedAt: null,
    updatedAt: `2026-11-23T10:00:0${id}.000Z`,
    ...extra,
  };
}

test('a card needing a person says why first, before its overlap', () => {
  const asks = row(1, 'in_progress', { reviewIssue: { id: 4, description: 'Is the schema right?' } });
  const other = row(2, 'in_progress');
  const overlaps = new Map([[1, [{ task: 'task-2', title: 'Task 2', agent: 'coder', paths: ['src/**'] }]]]);
  const [card] = boardCards([asks, other], new Map(), [], new Map(), overlaps).filter((c) => c.taskId === 1);
  assert.equal(card.column, 'needs_person');
  assert.deepEqual(
    card.notices.map((n) => n.kind),
    ['needs_person', 'overlap'],
  );
  assert.equal(card.notices[0].text, 'review requested: Is the schema right?');
});

test('an in-progress task whose dependencies are open is flagged; a held one says who stopped it', () => {
  const design = row(1, 'open');
  const build = row(2, 'in_progress');
  const held = row(3, 'in_progress', { hold: { by: 'ada', at: '2026-11-23T10:30:00.000Z' } });
  const waits = row(4, 'in_progress', {
    waiting: { reason: 'coolingDown', detail: 'its last run exited with code 1', blockedBy: [], since: 'x' },
  });
  const cards = boardCards([design, build, held, waits], new Map([[2, [1]]]), [], new Map());
  const card = (id: number) => cards.find((c) => c.taskId === id)!;
  assert.deepEqual(card(2).blockedBy, ['task-1']);
  assert.deepEqual(card(2).notices, [{ kind: 'open_dependencies', text: 'in progress, but waits for task-1' }]);
  assert.deepEqual(card(3).notices, [{ kind: 'held', text: 'stopped by ada: held until resumed' }]);
  assert.deepEqual(card(4).notices, [{ kind: 'waiting', text: 'its last run exited with code 1' }]);
  assert.equal(card(4).waiting?.reason, 'coolingDown');
});

test('a hold made through the services shows on the Board card and in task get, and resume clears it', async () => {
  const services = await createServices({ workspace: tempDir() });
  try {
    const task = await services.tasks.create({ title: 'Long job', status: 'in_progress' } as never);
    await services.holds.hold(task.id, 'ada');
    const card = (await services.board.board()).cards.find((c) => c.taskId === task.id)!;
    assert.equal(card.hold?.by, 'ada');
    assert.equal(card.notices[0].kind, 'held');
    assert.equal((await services.tasks.answer(task.id)).hold?.by, 'ada');
    await services.holds.resume(task.id, 'bob');
    assert.equal((await services.board.board()).cards.find((c) => c.taskId === task.id)!.hold, null);
    await assert.rejects(services.holds.resume(task.id), /is not held/);
  } finally {
    await services.dispose();
  }
});
