/**
 * v27: a session a person ended (its process gone, ended from the editor or the web board) says
 * who ended it, as a stopped run and a held task do; null when its own worker or the runner ended it.
 */
export const v27SessionEndedBy: readonly string[] = ['ALTER TABLE sessions ADD COLUMN ended_by TEXT'];
