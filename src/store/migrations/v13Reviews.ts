/**
 * v13: a person's review of a task's review requests (the Board's "needs a person" column). A
 * review covers the requests it saw: the task's issues asking for review up to `issue_through`,
 * and the completion at `completed_at` whose outcome asked for manual review. A later request (a
 * new issue, a completion again) asks again.
 */
export const v13Reviews: readonly string[] = [
  `CREATE TABLE task_reviews (
    id INTEGER PRIMARY KEY,
    task_id INTEGER NOT NULL REFERENCES tasks(id),
    verdict TEXT NOT NULL,
    note TEXT,
    issue_through INTEGER NOT NULL,
    completed_at TEXT,
    reviewed_by TEXT NOT NULL,
    reviewed_at TEXT NOT NULL
  )`,
  'CREATE INDEX task_reviews_by_task ON task_reviews(task_id, id)',
];
