import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Task } from '../../../src/core/tasks/taskModel';
import { filterText, listedWorkflows, taskDescription, taskShown } from '../../../src/views/taskText';

const base = {
  id: 9,
  status: 'open',
  result: null,
  progress: null,
  durationSeconds: null,
  startedAt: null,
  outcome: null,
  verification: null,
  assignee: null,
  assigneeType: null,
  priority: 'medium',
  type: 'task',
  labels: [],
} as unknown as Task;

test('a row says what needs a person and its state before its id (a narrow side bar cuts the end)', () => {
  assert.equal(taskDescription(base), 'open · task-9');
  assert.equal(
    taskDescription({ ...base, status: 'in_progress', progress: 40, assignee: 'coder', priority: 'high' }),
    'in progress 40% · task-9 · high · @coder',
  );
  const review = {
    ...base,
    status: 'done',
    result: 'partial_success',
    outcome: { summary: 'x', manual_review_needed: true },
  } as Task;
  assert.equal(taskDescription(review), 'needs review · partial success · task-9');
  assert.equal(
    taskDescription(review, Date.now(), { completionReviewed: true }),
    'reviewed · partial success · task-9',
  );
  assert.equal(
    taskDescription({ ...base, status: 'done', result: 'success' }, 0, { rewound: true }),
    'rewound · done · task-9',
  );
});

test('a held task, or one the runner does not start, says why before its state', () => {
  const running = { ...base, status: 'in_progress', progress: 40 } as Task;
  assert.equal(
    taskDescription({ ...running, hold: { by: 'ada', at: 'x' } } as Task),
    'held (stopped by ada) · in progress 40% · task-9',
  );
  const waiting = { reason: 'conflict', detail: 'overlaps task-3', blockedBy: ['task-3'], since: 'x' };
  assert.equal(
    taskDescription({ ...running, waiting } as Task),
    'waiting: overlaps a running task · in progress 40% · task-9',
  );
  assert.equal(
    taskDescription({ ...base, waiting } as Task),
    'open · task-9',
    'an open task is not waiting on the runner',
  );
});

test('workflows keep their place when one is written (newest first by id); empty pipeline workflows are left out', () => {
  const before = [
    { id: 2, kind: 'workflow', taskCount: 3, updatedAt: '2026-11-23T10:00:02Z' },
    { id: 5, kind: 'pipeline', taskCount: 0, updatedAt: '2026-11-23T10:00:03Z' },
    { id: 3, kind: 'workflow', taskCount: 1, updatedAt: '2026-11-23T10:00:01Z' },
    { id: 4, kind: 'pipeline', taskCount: 2, updatedAt: '2026-11-23T10:00:00Z' },
  ];
  // The store lists them most recently written first: a write to workflow 2 moves it up there.
  const after = [before[0], before[2], before[1], before[3]].map((w) =>
    w.id === 3 ? { ...w, updatedAt: '2026-11-23T11:00:00Z' } : w,
  );
  const ids = (ws: typeof before): number[] => listedWorkflows(ws).map((w) => w.id);
  assert.deepEqual(ids(before), [4, 3, 2]);
  assert.deepEqual(ids(after), [4, 3, 2]);
});

test('the filter hides done tasks, keeps only what needs me, or one agent’s', () => {
  const done = { ...base, status: 'done', result: 'success' } as Task;
  const review = { ...done, outcome: { summary: 'x', manual_review_needed: true } } as Task;
  const failed = { ...base, status: 'failed' } as Task;
  const coder = { ...base, assignee: 'coder', assigneeType: 'ai' } as Task;
  const person = { ...base, assignee: 'ana', assigneeType: 'human' } as Task;
  assert.equal(taskShown(done, { hideDone: true }), false);
  assert.equal(taskShown(review, { hideDone: true }), true, 'a done task that waits for my review stays');
  assert.equal(taskShown(review, { hideDone: true }, true), false, 'until I reviewed it');
  assert.deepEqual(
    [base, review, failed, coder, person].map((t) => taskShown(t, { needsMe: true })),
    [false, true, true, false, true],
  );
  assert.deepEqual(
    [base, coder, person].map((t) => taskShown(t, { agent: 'coder' })),
    [false, true, false],
  );
  assert.equal(filterText({ hideDone: true, agent: 'coder' }), 'hiding done · @coder');
});
