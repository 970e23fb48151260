/**
 * The runner's questions answered by the ledger itself, over the asynchronous store port (so a
 * runner on any machine works against the embedded store or the team's PostgreSQL alike).
 *
 * An (agent, project) instance (`agent_instances`) is held by one run at a time: claiming it
 * opens the run's execution log in the same transaction, so two runners racing for a pair get
 * one launch. A run whose runner stops sending heartbeats is taken over after `staleAfterMs`
 * (instanceClaims.ts). What a run's start and end write: runRecords.ts.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mkdirConfined } from '../../files/confinedPath';
import type { LedgerEngine } from '../../ports/store';
import { resolvePermissions } from '../../agents/agentPermissions';
import type { WorkspaceSettings } from '../../workers/workspaceSettings';
import type { CommitWorktree } from './leftoverCommit';
import { commitRunLeftovers } from './leftoverCommit';
import type { AgentClient } from '../../agents/agentModel';
import { executionKey, taskKey, parseId, parsePmId, pmIdOf, projectKey } from '../../ids';
import { recordWaiting } from '../../tasks/taskHolds';
import { agentClientOf, aiTypeOfRun } from '../pm/aiType';
import type { AgentDirectory } from '../pm/projectRows';
import { projectRowOf } from '../pm/projectRows';
import type { ProjectService } from '../pm/projectService';
import type { AgentRuntimeService } from '../pm/agentRuntimeService';
import { closeExecution } from '../pm/executionLogs';
import { hashSessionToken } from '../pm/passkey';
import { launchProfileOf } from './launchProfile';
import type {
  ActiveProject,
  LaunchChecks,
  LaunchHold,
  LaunchTarget,
  RunEnd,
  RunOutcome,
  RunStart,
  RunnerLedger,
  StartDecision,
} from './runnerPort';
import { LedgerError } from '../../errors';
import { nextAssignedTask } from '../pm/nextTask';
import { endRunSessions, endUnclaimedSession } from './runSessions';
import { claimInstanceIn, freeInstance } from './instanceClaims';
import { readOpenRuns, recordRunEnd, recordRunStart } from './runRecords';
import type { TokenService } from '../../access/tokenService';
import { tokenDigest } from '../../access/tokenService';

export interface LedgerForRunnerOptions {
  engine: LedgerEngine;
  projects: ProjectService;
  runtime: AgentRuntimeService;
  agents: AgentDirectory;
  /** Names this runner: the machine and its log folder. A restarted runner with the same id picks up its runs. */
  runnerId: string;
  /**
   * The task's own worktree (worker_command's) and the session that prepared it (ended with the
   * run: runSessions.ts); undefined to run in the project's folder.
   * It refuses (a LedgerError with `data.reason` dependenciesNotDone / writeScopeConflict) when
   * another process started an overlapping task since the check: the pair is held, not failed.
   */
  worktreeFor?: (
    taskId: number,
    agentId: string,
    overrides: { allowOverlap: boolean; client?: AgentClient },
  ) => Promise<PreparedRunFolder | undefined>;
  /** The project's declared commands and worktree setup (`.agent-ledger/workspace.yaml`); none when absent. */
  workspaceSettings?: () => WorkspaceSettings;
  /**
   * Commits what a run's agent left uncommitted in its task's worktree when the run ends
   * (leftoverCommit.ts), with the workspace the worktree paths are relative to.
   */
  leftovers?: { workspace: string; commit: CommitWorktree };
  /** Launch even when the task's write scope overlaps a running task's (conflict-aware scheduling off). */
  allowOverlap?: boolean;
  now?: () => Date;
  /** A held instance whose runner sent no heartbeat for this long is free. Default 2 minutes. */
  staleAfterMs?: number;
  /** How long a launch ticket can be redeemed. Default 10 minutes. */
  ticketTtlMs?: number;
  /** Makes the launch tokens of runs wired to an HTTP ledger server. */
  tokens?: TokenService;
}

/** The worktree a run works in, its session and branch. */
export interface PreparedRunFolder {
  cwd: string;
  sessionId: number;
  branch?: string;
  /** Git's folders of the worktree: the repository's (objects, refs) and the worktree's own (index, HEAD). */
  gitDirs?: { common: string; own: string };
}

/** The file, in the worktree's own Git folder (outside its files), that says its setup ran. */
export const setupDoneFile = 'agent-ledger-setup.done';

/**
 * The project's folder inside the task's worktree (workFolder.ts: the one folder every face names),
 * made when the worktree lacks it (a folder Git does not track, or left out of a sparse checkout),
 * so the agent starts where it is told to work.
 */
function projectFolderIn(worktreeCwd: string, projectDir: string): string {
  const folder = path.resolve(worktreeCwd, projectDir);
  if (!fs.existsSync(folder)) mkdirConfined(worktreeCwd, folder);
  return folder;
}

/** A worker_command refusal that means "not now" (another process started an overlapping task first), as a hold. */
function holdOf(err: unknown): LaunchHold | undefined {
  if (!LedgerError.is(err, 'InvalidStatus')) return undefined;
  const reason = err.data?.reason;
  const blockedBy = Array.isArray(err.data?.blockedBy) ? (err.data.blockedBy as string[]) : [];
  if (reason === 'writeScopeConflict') return { reason: 'conflict', detail: err.message, blockedBy };
  if (reason === 'dependenciesNotDone') return { reason: 'dependencies', detail: err.message, blockedBy };
  return undefined;
}

export class LedgerForRunner implements RunnerLedger {
  private readonly now: () => Date;
  private readonly staleAfterMs: number;

  constructor(private readonly o: LedgerForRunnerOptions) {
    this.now = o.now ?? (() => new Date());
    this.staleAfterMs = o.staleAfterMs ?? 120_000;
  }

  async healthCheck(): Promise<boolean> {
    try {
      await this.o.engine.read((db) => db.get('SELECT 1 AS ok'));
      return true;
    } catch {
      return false;
    }
  }

  async listActiveProjectsWithAgents(): Promise<ActiveProject[]> {
    return (await this.o.projects.activeWithAgents()).map((p) => ({
      projectId: p.project_id,
      projectName: p.project_name,
      workingDirectory: p.working_directory,
      agents: p.agents,
    }));
  }

  async shouldStart(agentId: string, projectId: string): Promise<StartDecision> {
    const decision = await this.o.runtime.shouldStart(agentId, projectId);
    return decision.should_start ? { shouldStart: true, aiType: decision.ai_type } : { shouldStart: false };
  }

  async startDecisions(pairs: ReadonlyArray<{ agentId: string; projectId: string }>): Promise<StartDecision[]> {
    const defined = new Map(this.o.agents.current().agents.map((a) => [a.name, a]));
    const nowIso = this.now().toISOString();
    const staleBefore = new Date(this.now().getTime() - this.staleAfterMs).toISOString();
    return this.o.engine.read(async (db) => {
      const projects = new Set((await db.all<{ id: number }>('SELECT id FROM projects')).map((r) => Number(r.id)));
      const pair = (agent: string, project: number): string => JSON.stringify([agent, project]);
      // A session of a run whose runner went silent and whose agent is provably over (instanceClaims.ts)
      // holds nothing: claiming the pair takes that run over and ends the session.
      const running = await db.all<{ agent: string; project_id: number }>(
        `SELECT s.agent, s.project_id FROM agent_sessions s
           LEFT JOIN agent_instances i ON i.execution_id = s.execution_id AND i.status = 'running'
          WHERE s.ended_at IS NULL AND s.expires_at > ?
            AND NOT (i.execution_id IS NOT NULL AND i.heartbeat_at <= ? AND i.cooldown_until IS NOT NULL AND i.cooldown_until <= ?)`,
        [nowIso, staleBefore, nowIso],
      );
      const busy = new Set(running.map((r) => pair(r.agent, Number(r.project_id))));
      const claims = await db.all<{
        agent: string;
        project_id: number;
        execution_id: number | null;
        runner_id: string | null;
      }>("SELECT agent, project_id, execution_id, runner_id FROM agent_instances WHERE status = 'running'");
      const claimed = new Map(claims.map((c) => [pair(c.agent, Number(c.project_id)), c]));
      const work = await db.all<{ assignee: string; project_id: number; run_client: string | null }>(
        "SELECT assignee, project_id, run_client FROM tasks WHERE status = 'in_progress' AND held_at IS NULL AND project_id IS NOT NULL AND assignee IS NOT NULL ORDER BY id",
      );
      // The oldest task of each pair says which client the runner starts (should_start's own query).
      const waiting = new Map<string, string | null>();
      for (const r of work) {
        const key = pair(r.assignee, Number(r.project_id));
        if (!waiting.has(key)) waiting.set(key, r.run_client);
      }
      // The same four rules as should_start, for every pair in one read, and why a pair does not start.
      return pairs.map(({ agentId, projectId }): StartDecision => {
        const agent = defined.get(agentId);
        const id = pmIdOf('project', projectId);
        if (!agent || id === undefined || !projects.has(id)) return { shouldStart: false };
        const key = pair(agentId, id);
        if (busy.has(key)) {
          const claim = claimed.get(key);
          return {
            shouldStart: false,
            idle: {
              reason: 'running',
              executionId: claim?.execution_id == null ? null : executionKey(Number(claim.execution_id)),
              runnerId: claim?.runner_id ?? null,
            },
          };
        }
        if (!waiting.has(key)) return { shouldStart: false, idle: { reason: 'noTask' } };
        return { shouldStart: true, aiType: aiTypeOfRun(agent.client, waiting.get(key) ?? null) };
      });
    });
  }

  async prepareLaunch(agentId: string, projectId: string, checks: LaunchChecks = {}): Promise<LaunchTarget> {
    const agent = this.o.agents.lookup(agentId);
    const allowOverlap = this.o.allowOverlap === true;
    const { project, task, hold, asked } = await this.o.engine.read(async (db) => {
      const row = await projectRowOf(db, projectId);
      // The task get_my_task will hand out: dependencies done and, unless --allow-overlap, no scope overlap.
      const next = await nextAssignedTask(
        db,
        row.id,
        agentId,
        allowOverlap ? undefined : { agentScope: agent.scope.write },
      );
      return {
        project: row,
        task: next.task?.id ?? next.held?.taskId ?? null,
        hold: next.task ? undefined : next.held,
        asked: { client: next.task?.run_client ?? null, model: next.task?.run_model ?? null },
      };
    });
    const profile = launchProfileOf(agent, asked);
    const [active] = (await this.listActiveProjectsWithAgents()).filter((p) => p.projectId === projectKey(project.id));
    let held: LaunchHold | undefined = hold
      ? { reason: hold.reason, detail: hold.detail, blockedBy: hold.blockedBy }
      : undefined;
    // Before any worktree or session is made for it: a client that cannot start holds the pair.
    const missing = held ? undefined : await checks.clientMissing?.(profile.client);
    if (missing !== undefined) held = { reason: 'clientMissing', detail: missing, blockedBy: [] };
    let worktree: PreparedRunFolder | undefined;
    if (!held && task !== null && this.o.worktreeFor) {
      try {
        worktree = await this.o.worktreeFor(task, agentId, {
          allowOverlap,
          client: typeof profile.client === 'string' ? agentClientOf(profile.client) : undefined,
        });
      } catch (err) {
        held = holdOf(err);
        if (!held) throw err;
      }
    }
    const settings = this.o.workspaceSettings?.();
    const doneFile = worktree?.gitDirs ? path.join(worktree.gitDirs.own, setupDoneFile) : undefined;
    // Once per worktree: a setup that failed (no file) runs again at the next launch.
    const setup =
      settings && settings.setup.length > 0 && doneFile && !held && !fs.existsSync(doneFile)
        ? { commands: settings.setup, cwd: worktree!.cwd, doneFile }
        : undefined;
    return {
      agentId,
      agentName: agent.name,
      projectId: projectKey(project.id),
      projectName: project.name,
      taskId: task === null ? null : taskKey(task),
      cwd: worktree
        ? projectFolderIn(worktree.cwd, project.working_directory)
        : (active?.workingDirectory ?? project.working_directory),
      ...(worktree ? { sessionId: worktree.sessionId, branch: worktree.branch } : {}),
      client: profile.client,
      model: profile.model,
      maxTurns: profile.maxTurns,
      permissions: {
        ...resolvePermissions(
          profile.accessLevel ? { ...agent.permissions, level: profile.accessLevel } : agent.permissions,
          settings?.commands ?? [],
        ),
        ...(worktree?.gitDirs ? { gitDirs: [worktree.gitDirs.common, worktree.gitDirs.own] } : {}),
      },
      ...(setup ? { setup } : {}),
      systemPrompt: agent.promptContent.trim() || undefined,
      limits: profile.limits,
      ...(held ? { hold: held } : {}),
    };
  }

  async holderOf(
    agentId: string,
    projectId: string,
  ): Promise<{ executionId: string | null; runnerId: string | null } | undefined> {
    const id = parsePmId('project', projectId, 'project_id');
    const row = await this.o.engine.read((db) =>
      db.get<{ execution_id: number | null; runner_id: string | null }>(
        "SELECT execution_id, runner_id FROM agent_instances WHERE agent = ? AND project_id = ? AND status = 'running'",
        [agentId, id],
      ),
    );
    if (!row) return undefined;
    return {
      executionId: row.execution_id === null ? null : executionKey(Number(row.execution_id)),
      runnerId: row.runner_id,
    };
  }

  claimInstance(target: LaunchTarget): Promise<string | undefined> {
    return this.o.engine.write((tx) =>
      claimInstanceIn(tx, target, {
        runnerId: this.o.runnerId,
        now: this.now(),
        staleAfterMs: this.staleAfterMs,
      }),
    );
  }

  async dropPrepared(sessionId: number, reason: string): Promise<void> {
    await this.o.engine.write((tx) =>
      endUnclaimedSession(tx, sessionId, `its run could not be claimed: ${reason}`, this.now()),
    );
  }

  async releaseInstance(executionId: string, reason: string, logFile?: string): Promise<void> {
    const id = parsePmId('execution', executionId, 'execution_id');
    const now = this.now();
    await this.o.engine.write(async (tx) => {
      await closeExecution(tx, id, { status: 'error', error: `the agent could not be started: ${reason}` }, now);
      if (logFile !== undefined) await tx.run('UPDATE execution_logs SET log_path = ? WHERE id = ?', [logFile, id]);
      await endRunSessions(tx, executionId, { ok: false, reason: `the agent could not be started: ${reason}` }, now);
      await freeInstance(tx, id, now.toISOString(), false);
    });
  }

  async heartbeat(executionIds: readonly string[]): Promise<void> {
    const ids = executionIds.map((e) => parsePmId('execution', e, 'execution_id'));
    if (ids.length === 0) return;
    const ts = this.now().toISOString();
    await this.o.engine.write((tx) =>
      tx.run(`UPDATE agent_instances SET heartbeat_at = ? WHERE execution_id IN (${ids.map(() => '?').join(', ')})`, [
        ts,
        ...ids,
      ]),
    );
  }

  openRuns(): Promise<RunStart[]> {
    return this.o.engine.read((db) => readOpenRuns(db, this.o.runnerId));
  }

  async issueLaunchTicket(executionId: string): Promise<string> {
    const id = parsePmId('execution', executionId, 'execution_id');
    const ticket = randomBytes(32).toString('base64url');
    const expires = new Date(this.now().getTime() + (this.o.ticketTtlMs ?? 10 * 60_000)).toISOString();
    await this.o.engine.write((tx) =>
      tx.run('UPDATE agent_instances SET ticket_hash = ?, ticket_expires_at = ? WHERE execution_id = ?', [
        hashSessionToken(ticket),
        expires,
        id,
      ]),
    );
    return ticket;
  }

  async issueLaunchToken(executionId: string, target: LaunchTarget, ttlMs: number): Promise<string> {
    if (!this.o.tokens) throw new LedgerError('ConfigError', 'this runner cannot make launch tokens');
    const id = parsePmId('execution', executionId, 'execution_id');
    const { token, secret } = await this.o.tokens.create({
      role: 'agent',
      agent: target.agentId,
      projects: [target.projectId],
      ttlSeconds: Math.max(60, Math.ceil(ttlMs / 1000)),
      executionId: id,
    });
    // The token is the run's ticket too: `authenticate` without a passkey redeems it, once.
    await this.o.engine.write((tx) =>
      tx.run('UPDATE agent_instances SET ticket_hash = ?, ticket_expires_at = ? WHERE execution_id = ?', [
        tokenDigest(secret),
        token.expires_at,
        id,
      ]),
    );
    return secret;
  }

  async runStarted(run: RunStart): Promise<void> {
    await this.o.engine.write((tx) => recordRunStart(tx, run, this.now().toISOString()));
  }

  async runEnded(run: RunEnd): Promise<RunOutcome> {
    if (this.o.leftovers) {
      // Before the run's end is recorded: the branch is clean by the time anyone reads "ended".
      await commitRunLeftovers(
        this.o.engine,
        this.o.leftovers.workspace,
        this.o.leftovers.commit,
        run,
        this.now(),
      ).catch((err: unknown) =>
        console.error(`[agent-ledger] could not commit what ${run.executionId} left uncommitted:`, err),
      );
    }
    const now = this.now();
    return this.o.engine.write(async (tx) => {
      const outcome = await recordRunEnd(tx, run, now);
      // A launch token dies with its run.
      const id = pmIdOf('execution', run.executionId);
      if (id !== undefined)
        await tx.run('UPDATE access_tokens SET revoked_at = ? WHERE execution_id = ? AND revoked_at IS NULL', [
          now.toISOString(),
          id,
        ]);
      return outcome;
    });
  }

  async noteWaiting(
    taskId: string,
    waiting: { reason: string; detail: string; blockedBy: string[] } | null,
  ): Promise<void> {
    const id = parseId('task', taskId);
    const now = this.now().toISOString();
    await this.o.engine.write((tx) => recordWaiting(tx, id, waiting, now));
  }
}
