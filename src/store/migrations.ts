import { v1Tracking } from './migrations/v1Tracking';
import { v2TaskManagement } from './migrations/v2TaskManagement';
import { v3Pipelines } from './migrations/v3Pipelines';
import { v4SessionsByAgent } from './migrations/v4SessionsByAgent';
import { v5TaskLocation } from './migrations/v5TaskLocation';
import { v6Coordination } from './migrations/v6Coordination';
import { v7AgentRuntime } from './migrations/v7AgentRuntime';
import { v8Machines } from './migrations/v8Machines';
import { v9Events } from './migrations/v9Events';
import { v10Children } from './migrations/v10Children';
import { v11Scheduling } from './migrations/v11Scheduling';
import { v12Runner } from './migrations/v12Runner';
import { v13Reviews } from './migrations/v13Reviews';
import { v14StigWeights } from './migrations/v14StigWeights';
import { v15GraphDiffs } from './migrations/v15GraphDiffs';
import { v16StigLooseNodes } from './migrations/v16StigLooseNodes';
import { v17StigChanges } from './migrations/v17StigChanges';
import { v18UsageCounters } from './migrations/v18UsageCounters';
import { v19KnowledgeSizes } from './migrations/v19KnowledgeSizes';
import { v20QueuedRuns } from './migrations/v20QueuedRuns';
import { v21AccessTokens } from './migrations/v21AccessTokens';
import { v22GraphTransactions } from './migrations/v22GraphTransactions';
import { v23PlanRuns } from './migrations/v23PlanRuns';
import { v24Holds } from './migrations/v24Holds';
import { v25PlanRunClients } from './migrations/v25PlanRunClients';
import { v26SessionProcess } from './migrations/v26SessionProcess';
import { v27SessionEndedBy } from './migrations/v27SessionEndedBy';

/**
 * Forward-only schema migrations, numbered by `PRAGMA user_version`. Each entry runs in the
 * same journaled transaction as the version bump, so every process replays it identically.
 * Append new versions at the end; never edit a released one. PostgreSQL runs the same versions
 * (postgres/pgSchema.ts translates them, or takes a hand-written override for a version whose
 * SQLite statements do not translate; a test compares the two schemas column by column).
 */
export const migrations: ReadonlyArray<readonly string[]> = [
  v1Tracking,
  v2TaskManagement,
  v3Pipelines,
  v4SessionsByAgent,
  v5TaskLocation,
  v6Coordination,
  v7AgentRuntime,
  v8Machines,
  v9Events,
  v10Children,
  v11Scheduling,
  v12Runner,
  v13Reviews,
  v14StigWeights,
  v15GraphDiffs,
  v16StigLooseNodes,
  v17StigChanges,
  v18UsageCounters,
  v19KnowledgeSizes,
  v20QueuedRuns,
  v21AccessTokens,
  v22GraphTransactions,
  v23PlanRuns,
  v24Holds,
  v25PlanRunClients,
  v26SessionProcess,
  v27SessionEndedBy,
];

export const latestVersion = migrations.length;

/** Runs the statements of every version after `from`, bumping `user_version` after each. */
export function migrate(run: (sql: string) => void, from: number): void {
  for (let version = from + 1; version <= latestVersion; version++) {
    for (const sql of migrations[version - 1]) run(sql);
    run(`PRAGMA user_version = ${version}`);
  }
}
