/**
 * v2: task management — the task columns its contract adds, sessions, the worktree of
 * each task, and the indexes of the agent and Memory Bank files (the files are the truth;
 * these rows let views and notifications follow them).
 */
export const v2TaskManagement: readonly string[] = [
  // The session whose work the task shows (the task-management contract's selectedSessionId).
  'ALTER TABLE tasks ADD COLUMN selected_session_id INTEGER',
  // Workspace-relative worktree the task's snapshot was taken in: complete_task measures there.
  'ALTER TABLE tasks ADD COLUMN worktree TEXT',
  // JSON [{ agent, write, exclude }]: write scopes of the agents that worked on the task.
  'ALTER TABLE tasks ADD COLUMN write_scope TEXT',
  'CREATE INDEX tasks_by_assignee ON tasks(assignee)',
  `CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    task_id INTEGER NOT NULL REFERENCES tasks(id),
    agent TEXT NOT NULL,
    client TEXT,
    origin TEXT NOT NULL,
    status TEXT NOT NULL,
    session_group_id TEXT,
    idempotency_key TEXT UNIQUE,
    worktree TEXT,
    branch TEXT,
    scope TEXT,
    exit_code INTEGER,
    signal TEXT,
    dod_result TEXT,
    artifacts TEXT,
    error TEXT,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    duration_seconds INTEGER
  )`,
  'CREATE INDEX sessions_by_task ON sessions(task_id, id)',
  'CREATE INDEX sessions_by_status ON sessions(status, task_id)',
  `CREATE TABLE worktrees (
    task_id INTEGER PRIMARY KEY REFERENCES tasks(id),
    path TEXT NOT NULL,
    branch TEXT NOT NULL,
    base_commit TEXT NOT NULL,
    sparse INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    last_used_at TEXT NOT NULL,
    removed_at TEXT,
    freed_bytes INTEGER
  )`,
  `CREATE TABLE agents (
    name TEXT PRIMARY KEY,
    file TEXT NOT NULL,
    client TEXT NOT NULL,
    model TEXT,
    description TEXT,
    definition TEXT NOT NULL,
    indexed_at TEXT NOT NULL
  )`,
  `CREATE TABLE memories (
    category TEXT NOT NULL,
    id TEXT NOT NULL,
    file TEXT NOT NULL,
    title TEXT NOT NULL,
    summary TEXT,
    status TEXT NOT NULL,
    indexed_at TEXT NOT NULL,
    PRIMARY KEY (category, id)
  )`,
];
