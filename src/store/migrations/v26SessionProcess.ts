/**
 * v26: a session records the process it lives in — its pid and that process's start time (a pid
 * alone proves nothing: the kernel reuses pids) — beside the machine it already records, so a
 * view on the same machine can tell a session whose process is gone (stale) from a live one.
 */
export const v26SessionProcess: readonly string[] = [
  'ALTER TABLE sessions ADD COLUMN pid INTEGER',
  'ALTER TABLE sessions ADD COLUMN pid_start TEXT',
];
