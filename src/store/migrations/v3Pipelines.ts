/**
 * v3: pipelines — the index of pipeline runs and the human decisions at their
 * checkpoints. `<repo>/.specs/<name>/state.json` is the truth of a pipeline; this row mirrors
 * what lists and views need (status, phase, waiting checkpoint, totals) so every process sees
 * a change, and an approval made in one process, through the journal.
 */
export const v3Pipelines: readonly string[] = [
  `CREATE TABLE pipelines (
    id INTEGER PRIMARY KEY,
    workspace TEXT NOT NULL UNIQUE,
    spec_name TEXT NOT NULL,
    title TEXT NOT NULL,
    workflow_id INTEGER REFERENCES workflows(id),
    source_type TEXT NOT NULL,
    source_url TEXT,
    effort TEXT NOT NULL,
    flow_template TEXT NOT NULL,
    status TEXT NOT NULL,
    current_phase TEXT NOT NULL,
    waiting TEXT,
    total_tokens INTEGER NOT NULL DEFAULT 0,
    total_duration_ms INTEGER NOT NULL DEFAULT 0,
    rev INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    completed_at TEXT
  )`,
  'CREATE INDEX pipelines_by_status ON pipelines(status, updated_at)',
  `CREATE TABLE pipeline_decisions (
    id INTEGER PRIMARY KEY,
    pipeline_id INTEGER NOT NULL REFERENCES pipelines(id),
    name TEXT NOT NULL,
    phase TEXT NOT NULL,
    kind TEXT NOT NULL,
    decision TEXT NOT NULL,
    comment TEXT,
    decided_by TEXT NOT NULL,
    via TEXT NOT NULL,
    decided_at TEXT NOT NULL
  )`,
  'CREATE INDEX pipeline_decisions_by_pipeline ON pipeline_decisions(pipeline_id, id)',
];
