/**
 * v23: plan runs (a behaviour tree over a plan, run by whichever process ticks it next).
 * - plan_runs: one row per run: its tree (JSON), each node's state (JSON), the run's variables and
 *   agents, its status (running, paused, succeeded, failed, cancelled), its mode (bt: ticked when a
 *   task ends or a runner polls; reactive: also on a scheduler every tick_ms), its deadline, and the
 *   number of ticks taken (tick_seq: the SCHEDULER events' sequence).
 * - plan_run_ops: every operation a run started (its own op, each launch of a task leaf), so
 *   op_cancel finds the run and the node of an op_id.
 */
export const v23PlanRuns: readonly string[] = [
  `CREATE TABLE plan_runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    op_id TEXT NOT NULL,
    graph_id TEXT,
    tree_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    status TEXT NOT NULL,
    tree TEXT NOT NULL,
    state TEXT NOT NULL,
    variables TEXT NOT NULL,
    agents TEXT NOT NULL,
    default_agent TEXT,
    tick_ms INTEGER,
    deadline_ms INTEGER,
    tick_seq INTEGER NOT NULL DEFAULT 0,
    reason TEXT,
    created_by TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    ended_at TEXT
  )`,
  'CREATE INDEX plan_runs_status ON plan_runs(status)',
  `CREATE TABLE plan_run_ops (
    op_id TEXT PRIMARY KEY,
    run_id INTEGER NOT NULL,
    node_id TEXT,
    task_id INTEGER,
    created_at TEXT NOT NULL
  )`,
  'CREATE INDEX plan_run_ops_task ON plan_run_ops(task_id)',
];
