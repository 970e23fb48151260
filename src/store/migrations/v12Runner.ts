/**
 * v12: the runner. An (agent, project) instance records the run that holds it (its execution
 * log) and the digest of the single-use launch ticket the runner gave that run's MCP server, so
 * the agent logs in without ever seeing a passkey; an execution log records the process that ran
 * (its id names the log file) and the client.
 */
export const v12Runner: readonly string[] = [
  'ALTER TABLE agent_instances ADD COLUMN execution_id INTEGER',
  'ALTER TABLE agent_instances ADD COLUMN ticket_hash TEXT',
  'ALTER TABLE agent_instances ADD COLUMN ticket_expires_at TEXT',
  'ALTER TABLE execution_logs ADD COLUMN process_id TEXT',
  'ALTER TABLE execution_logs ADD COLUMN client TEXT',
  'ALTER TABLE execution_logs ADD COLUMN runner_id TEXT',
  'ALTER TABLE execution_logs ADD COLUMN cache_read_tokens INTEGER',
  'CREATE INDEX execution_logs_open_by_runner ON execution_logs(runner_id, status)',
];
