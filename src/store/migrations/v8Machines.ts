/**
 * v8: where each row came from when several machines share one ledger (PostgreSQL). Git truth is
 * local: a task's snapshot lives in the repository of the machine that started it, so the task
 * records that machine (and the OS user); sessions and decisions record theirs, and so does every
 * event. Null on rows written before v8 (or by a process that does not know its machine).
 */
export const v8Machines: readonly string[] = [
  'ALTER TABLE tasks ADD COLUMN machine_id TEXT',
  'ALTER TABLE tasks ADD COLUMN os_user TEXT',
  'ALTER TABLE sessions ADD COLUMN machine_id TEXT',
  'ALTER TABLE sessions ADD COLUMN os_user TEXT',
  'ALTER TABLE decisions ADD COLUMN machine_id TEXT',
  'ALTER TABLE decisions ADD COLUMN os_user TEXT',
  'ALTER TABLE events ADD COLUMN machine_id TEXT',
  'ALTER TABLE events ADD COLUMN os_user TEXT',
];
