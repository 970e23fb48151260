/** The benchmark's seeding, and the alternative design it measures: a local sql.js replica fed from the server. */
import type { LedgerEngine } from '../../src/store/engine';
import { loadSqlJs } from '../../src/store/embedded/sqlJs';
import { migrate } from '../../src/store/migrations';

/** `count` tasks in one workflow, each with a milestone and an event, in batches of multi-row inserts. */
export async function seedTasks(engine: LedgerEngine, count: number): Promise<void> {
  await engine.write((tx) => tx.run("INSERT INTO workflows (name, created_at, updated_at) VALUES ('bench', 't', 't')"));
  const batch = 250;
  for (let start = 0; start < count; start += batch) {
    const n = Math.min(batch, count - start);
    await engine.write(async (tx) => {
      const ids: number[] = [];
      for (let i = 0; i < n; i++) {
        ids.push(
          await tx.insert(
            `INSERT INTO tasks (workflow_id, title, goal, status, areas, snapshot_type, snapshot_id, started_at, created_at, updated_at)
             VALUES (1, ?, 'A goal of a realistic length for a task of an agent.', 'in_progress', '["src/auth","api"]', 'git', ?, 't', 't', 't')`,
            [`Task ${start + i}: implement something meaningful`, 'f'.repeat(40)],
          ),
        );
      }
      await tx.run(
        `INSERT INTO milestones (task_id, message, progress, created_at) VALUES ${ids.map(() => "(?, 'Running tests…', 50, 't')").join(', ')}`,
        ids,
      );
      await tx.run(
        `INSERT INTO events (ts, kind, workflow_id, task_id, payload) VALUES ${ids.map(() => "('t', 'task.started', 1, ?, '{}')").join(', ')}`,
        ids,
      );
    });
  }
}

const TABLES = [
  'workflows',
  'tasks',
  'milestones',
  'events',
  'decisions',
  'issues',
  'sessions',
  'worktrees',
  'agents',
  'memories',
  'pipelines',
  'pipeline_decisions',
];

/** Loads every row of `engine` into a fresh in-memory sql.js database; the cost a replica pays on every process start. */
export async function replicaLoad(
  engine: LedgerEngine,
): Promise<{ loadMs: number; imageMiB: number; rssMiB: number; baseRssMiB: number }> {
  const SQL = await loadSqlJs();
  global.gc?.();
  const baseRss = process.memoryUsage().rss;
  const started = performance.now();
  const db = new SQL.Database();
  migrate((sql) => db.run(sql), 0);
  db.run('BEGIN');
  await engine.read(async (reader) => {
    for (const table of TABLES) {
      const rows = await reader.all<Record<string, string | number | null>>(`SELECT * FROM ${table}`);
      if (!rows.length) continue;
      const columns = Object.keys(rows[0]);
      const stmt = db.prepare(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      for (const row of rows) stmt.run(columns.map((c) => row[c]));
      stmt.free();
    }
  });
  db.run('COMMIT');
  const loadMs = performance.now() - started;
  const rssMiB = process.memoryUsage().rss / 1024 / 1024;
  const imageMiB = db.export().length / 1024 / 1024;
  db.close();
  return { loadMs, imageMiB, rssMiB, baseRssMiB: baseRss / 1024 / 1024 };
}
