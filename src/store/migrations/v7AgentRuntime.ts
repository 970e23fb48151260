/**
 * v7: agents that run by themselves. A project is a working directory inside (or equal to) the
 * workspace this ledger belongs to, with agents assigned to it; the ledger stays one per
 * workspace, so a project is a row of it, not a ledger of its own, and every task, agent and
 * session stays shared with the rest of the ledger. Agents are the indexed agent files (keyed by
 * name); the rows below refer to them by name without a foreign key because the index is rebuilt
 * from the files. Secrets are stored hashed only (scrypt passkeys, SHA-256 session tokens).
 * Checked against the agent-PM contract: a session is bound to (agent, project) and, once
 * get_my_task hands it a task, to that task and the execution log get_my_task opens; save_context
 * takes no agent (seed: task_id, progress, findings, blockers, next_steps), so a context's agent is
 * optional; an execution log keeps the session, the reported result and summary.
 */
export const v7AgentRuntime: readonly string[] = [
  `CREATE TABLE projects (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    description TEXT,
    working_directory TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE TABLE project_agents (
    project_id INTEGER NOT NULL REFERENCES projects(id),
    agent TEXT NOT NULL,
    assigned_at TEXT NOT NULL,
    PRIMARY KEY (project_id, agent)
  )`,
  'CREATE INDEX project_agents_by_agent ON project_agents(agent, project_id)',
  // The project a task belongs to (NULL: the workspace itself).
  'ALTER TABLE tasks ADD COLUMN project_id INTEGER',
  'CREATE INDEX tasks_by_project ON tasks(project_id, status)',
  `CREATE TABLE agent_credentials (
    agent TEXT PRIMARY KEY,
    passkey_hash TEXT NOT NULL,
    salt TEXT NOT NULL,
    scrypt_params TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE TABLE agent_sessions (
    id INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    agent TEXT NOT NULL,
    project_id INTEGER NOT NULL REFERENCES projects(id),
    created_at TEXT NOT NULL,
    last_active_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    ended_at TEXT,
    ended_reason TEXT,
    task_id INTEGER REFERENCES tasks(id),
    execution_id INTEGER
  )`,
  'CREATE INDEX agent_sessions_by_agent ON agent_sessions(agent, project_id, expires_at)',
  // One instance per (agent, project): what the runner launched and whether it still runs.
  `CREATE TABLE agent_instances (
    agent TEXT NOT NULL,
    project_id INTEGER NOT NULL REFERENCES projects(id),
    status TEXT NOT NULL,
    task_id INTEGER REFERENCES tasks(id),
    pid INTEGER,
    process_id TEXT,
    runner_id TEXT,
    started_at TEXT,
    heartbeat_at TEXT,
    consecutive_failures INTEGER NOT NULL DEFAULT 0,
    cooldown_until TEXT,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (agent, project_id)
  )`,
  `CREATE TABLE task_contexts (
    id INTEGER PRIMARY KEY,
    task_id INTEGER NOT NULL REFERENCES tasks(id),
    agent TEXT,
    progress TEXT,
    findings TEXT,
    blockers TEXT,
    next_steps TEXT,
    created_at TEXT NOT NULL
  )`,
  'CREATE INDEX task_contexts_by_task ON task_contexts(task_id, id)',
  `CREATE TABLE handoffs (
    id INTEGER PRIMARY KEY,
    task_id INTEGER NOT NULL REFERENCES tasks(id),
    from_agent TEXT NOT NULL,
    to_agent TEXT,
    summary TEXT NOT NULL,
    context TEXT,
    recommendations TEXT,
    status TEXT NOT NULL DEFAULT 'pending',
    created_at TEXT NOT NULL,
    accepted_at TEXT,
    accepted_by TEXT
  )`,
  'CREATE INDEX handoffs_by_recipient ON handoffs(to_agent, status, id)',
  'CREATE INDEX handoffs_by_task ON handoffs(task_id, id)',
  `CREATE TABLE execution_logs (
    id INTEGER PRIMARY KEY,
    task_id INTEGER REFERENCES tasks(id),
    agent TEXT NOT NULL,
    project_id INTEGER REFERENCES projects(id),
    session_id INTEGER REFERENCES agent_sessions(id),
    status TEXT NOT NULL,
    result TEXT,
    summary TEXT,
    started_at TEXT NOT NULL,
    completed_at TEXT,
    exit_code INTEGER,
    signal TEXT,
    duration_ms INTEGER,
    log_path TEXT,
    input_tokens INTEGER,
    output_tokens INTEGER,
    cost_usd REAL,
    error TEXT
  )`,
  'CREATE INDEX execution_logs_by_task ON execution_logs(task_id, id)',
  'CREATE INDEX execution_logs_by_agent ON execution_logs(agent, id)',
];
