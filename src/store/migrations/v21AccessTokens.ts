/**
 * v21: bearer tokens of the HTTP server (`agent-ledger token create|list|revoke`) and which token
 * made each write. A token is stored as the SHA-256 digest of its secret (the secret is shown once,
 * at creation); `role` is agent, person or admin; an agent token names its agent and the projects
 * it may act in (a JSON array of project keys), a runner's launch token its execution too.
 * `events.token_id` is the token of the request that appended the event (NULL: a local process —
 * the CLI, the editor, a stdio server —, whose machine and OS user the row already records).
 * `ledger_settings` holds the ledger's own switches and keys, shared by every server on it (whether
 * a pipeline checkpoint may be asked of the person in their MCP client; the key that protects the
 * state of such a question while the client answers it, the same on every replica).
 */
export const v21AccessTokens: readonly string[] = [
  `CREATE TABLE access_tokens (
    id INTEGER PRIMARY KEY,
    digest TEXT NOT NULL,
    role TEXT NOT NULL,
    name TEXT NOT NULL,
    agent TEXT,
    projects TEXT,
    execution_id INTEGER,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    revoked_at TEXT,
    last_used_at TEXT
  )`,
  'CREATE UNIQUE INDEX access_tokens_by_digest ON access_tokens(digest)',
  'ALTER TABLE events ADD COLUMN token_id INTEGER',
  `CREATE TABLE ledger_settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    updated_by TEXT NOT NULL
  )`,
];
