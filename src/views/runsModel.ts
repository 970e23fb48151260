import type { Services } from '../app/services';
import type { CostTotals } from '../core/costs/costContracts';
import { noCost } from '../core/costs/costRollup';
import type { RunsModel } from '../shared/protocol';

/** Runs a view lists, newest first. */
const listed = 200;
/** Events of the activity list. */
const activity = 40;

/** Agent runs with their tasks and cost, what runs now, and the latest activity of the ledger. */
export async function runsModel(services: Services, folder: { name: string; root: string }): Promise<RunsModel> {
  const [runs, running, costs, last] = await Promise.all([
    services.executions.list({ limit: listed }),
    services.instances.running(),
    services.costs.agents(),
    services.activity.lastSeq(),
  ]);
  const titles = new Map<string, string>();
  const ids = [...new Set(runs.map((r) => r.taskId).filter((t): t is string => t !== null))];
  if (ids.length) {
    const rows = await services.engine.read((db) =>
      db.all<{ id: number; title: string }>(
        `SELECT id, title FROM tasks WHERE id IN (${ids.map(() => '?').join(', ')})`,
        ids.map((k) => Number(k.replace(/^task-/, ''))),
      ),
    );
    for (const r of rows) titles.set(`task-${r.id}`, r.title);
  }
  return {
    folder: folder.root,
    folderName: folder.name,
    runs: runs.map((r) => ({ ...r, taskTitle: r.taskId ? (titles.get(r.taskId) ?? null) : null })),
    running,
    totals: costs.reduce<CostTotals>(
      (sum, c) => ({
        runs: sum.runs + c.runs,
        running: sum.running + c.running,
        costUsd: Math.round((sum.costUsd + c.costUsd) * 1e6) / 1e6,
        unpricedRuns: sum.unpricedRuns + c.unpricedRuns,
        inputTokens: sum.inputTokens + c.inputTokens,
        outputTokens: sum.outputTokens + c.outputTokens,
        cacheReadTokens: sum.cacheReadTokens + c.cacheReadTokens,
        durationSeconds: sum.durationSeconds + c.durationSeconds,
      }),
      { ...noCost },
    ),
    activity: await services.activity.history(last, activity, {}),
  };
}
