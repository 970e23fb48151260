/**
 * v24: a task a person stopped is held — the runner does not launch it again until someone resumes
 * it — and says who held it and when; a run a person stopped says who stopped it (never an error);
 * and the runner's last reason for not starting a task (dependencies, a scope overlap, a cool-down,
 * a claim elsewhere, a missing client) is kept on the task so every face can say why it waits.
 */
export const v24Holds: readonly string[] = [
  'ALTER TABLE tasks ADD COLUMN held_by TEXT',
  'ALTER TABLE tasks ADD COLUMN held_at TEXT',
  'ALTER TABLE tasks ADD COLUMN waiting TEXT',
  'ALTER TABLE execution_logs ADD COLUMN stopped_by TEXT',
];
