import type { Services } from '../../src/app/services';

/**
 * Fills a fresh store with `count` in-progress tasks (one milestone and one event each) in
 * batches of 2,000 per transaction, then checkpoints: the store a benchmark at scale starts from.
 */
export async function populateTasks(services: Services, count: number): Promise<void> {
  const { workflow_id } = await services.workflows.start({ name: 'bench' });
  const wf = Number(workflow_id.replace('wf-', ''));
  const now = new Date().toISOString();
  const batch = 2000;
  for (let done = 0; done < count; done += batch) {
    await services.engine.write(async (tx) => {
      for (let i = done; i < Math.min(count, done + batch); i++) {
        const id = await tx.insert(
          `INSERT INTO tasks (workflow_id, title, goal, status, areas, snapshot_type, snapshot_id, started_at, created_at, updated_at)
           VALUES (?, ?, ?, 'in_progress', '["src/auth","api"]', 'git', ?, ?, ?, ?)`,
          [
            wf,
            `Task ${i}: implement something meaningful`,
            'A goal of a realistic length for a task of an agent.',
            'f'.repeat(40),
            now,
            now,
            now,
          ],
        );
        await tx.run('INSERT INTO milestones (task_id, message, progress, created_at) VALUES (?, ?, ?, ?)', [
          id,
          'Running tests…',
          50,
          now,
        ]);
        await tx.run(
          "INSERT INTO events (ts, kind, workflow_id, task_id, payload) VALUES (?, 'task.started', ?, ?, '{}')",
          [now, wf, id],
        );
      }
    });
  }
  await (services.engine as unknown as { checkpoint(): Promise<void> }).checkpoint();
}
