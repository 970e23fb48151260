import type { LedgerEngine } from '../ports/store';
import type { Snapshot, WorkspaceTruth } from '../ports/workspaceTruth';
import type { Task } from '../tasks/taskModel';
import { LedgerError, stateError } from '../errors';
import { notFound, parseId, taskKey } from '../ids';
import type { Clock } from '../time';
import { iso, secondsBetween } from '../time';
import { appendEvent } from '../events/eventLog';
import type { AgentRegistry } from '../agents/agentRegistry';
import type { Session, SessionEnd, SessionView } from './sessionRepo';
import { endSessionRow, getSession, insertSession, listSessions, sessionByKey, sessionView } from './sessionRepo';
import type { SessionEndInput, SessionListInput, SessionStartInput, SessionStartResult } from './sessionContracts';
import { applySessionEnd, applySessionStart, requireNoRunningSession, requireSessionTask } from './sessionTask';
import { pinSnapshot } from '../tasks/snapshotPin';
import { thisMachine } from '../machine';
import { sessionLiveness } from './sessionLiveness';
import type { ProcessProber } from './sessionLiveness';
import type { TaskLifecycle } from '../tasks/taskLifecycle';

/** The task-management contract's sessions for workers run by hand or by an orchestrator that does not use worker_command. */
export class SessionService {
  constructor(
    private readonly db: LedgerEngine,
    private readonly agents: AgentRegistry,
    private readonly truth: () => Promise<WorkspaceTruth>,
    private readonly clock: Clock,
    /** Told when a session's end settles its task as done or failed (taskLifecycle.ts). */
    private readonly lifecycle?: TaskLifecycle,
    /** Reads whether a pid runs (the processes layer's); none: liveness is unknown. */
    private readonly prober?: ProcessProber,
  ) {}

  async start(input: SessionStartInput): Promise<SessionStartResult> {
    const taskId = parseId('task', input.taskId);
    const key = input.idempotencyKey ?? null;
    // A retry replays before anything else, even if the agent's definition changed since.
    const earlier = key === null ? undefined : await this.db.read((db) => sessionByKey(db, key));
    if (earlier) return replay(earlier, taskId, input.agent);
    const agent = await this.agents.get(input.agent);
    const checked = await this.db.read(async (db): Promise<{ raced: Session } | { task: Task }> => {
      // The key first, in the same read as the running-session check: a racing call with the
      // same key may have committed its session meanwhile, and this call must replay it.
      const raced = key === null ? undefined : await sessionByKey(db, key);
      if (raced) return { raced };
      const t = await requireSessionTask(db, taskId);
      await requireNoRunningSession(db, taskId, agent.name, input.allowConcurrent);
      return { task: t };
    });
    if ('raced' in checked) return replay(checked.raced, taskId, input.agent);
    const task = checked.task;
    // The first session of a task snapshots the workspace, as start_task does: complete_task measures from it.
    let truth: WorkspaceTruth | undefined;
    let snapshot: Snapshot | null = null;
    if (task.snapshot === null) {
      truth = await this.truth();
      snapshot = await truth.snapshot(`${taskKey(taskId)}: ${task.title}`);
    }
    const now = iso(this.clock.now());
    const outcome = await this.db.write(async (tx) => {
      // Checked again under the lock: another process may have started one meanwhile.
      const raced = key === null ? undefined : await sessionByKey(tx, key);
      if (raced) return { raced };
      const current = await requireSessionTask(tx, taskId);
      await requireNoRunningSession(tx, taskId, agent.name, input.allowConcurrent);
      const sessionId = await insertSession(tx, {
        taskId,
        agent: agent.name,
        client: agent.client,
        origin: 'session_start',
        sessionGroupId: input.sessionGroupId ?? null,
        idempotencyKey: key,
        worktree: null,
        scope: agent.scope,
        startedAt: now,
      });
      const tookSnapshot = await applySessionStart(tx, current, { sessionId, agent, snapshot, worktree: null, now });
      await appendEvent(tx, {
        ts: now,
        kind: 'session.started',
        workflowId: current.workflowId,
        taskId,
        entity: 'session',
        entityId: String(sessionId),
        payload: { agent: agent.name },
      });
      return { sessionId, tookSnapshot };
    });
    if ('raced' in outcome) return replay(outcome.raced!, taskId, input.agent);
    if (outcome.tookSnapshot && truth && snapshot) await pinSnapshot(truth, snapshot, taskKey(taskId));
    return { sessionId: outcome.sessionId, startedAt: now, taskId, agent: agent.name, replayed: false };
  }

  /**
   * Ends a running session. `by`: the person ending it from the editor or the web board (a
   * session whose process is gone), recorded on the session; none when its worker ends it.
   */
  async end(input: SessionEndInput, by?: string): Promise<SessionView & { taskStatus?: string }> {
    const id = parseId('session', input.sessionId);
    const endedAt = this.clock.now();
    const now = iso(endedAt);
    const ended = await this.db.write(async (tx) => {
      const session = await getSession(tx, id);
      if (!session) throw notFound('session', id);
      if (session.status !== 'running') {
        throw stateError(
          `session ${id} already ended (${session.status} at ${session.endedAt}); a session is ended once`,
          { sessionId: id, status: session.status },
        );
      }
      const failed =
        input.exitCode !== 0 ||
        input.error !== undefined ||
        input.signal !== undefined ||
        input.dodResult === 'timeout' ||
        input.dodResult === 'error';
      const end: SessionEnd = {
        status: failed ? 'failed' : 'completed',
        exitCode: input.exitCode,
        signal: input.signal ?? null,
        dodResult: input.dodResult ?? null,
        artifacts: (input.artifacts ?? []).map((a) => a.replace(/\\/g, '/').replace(/^\.\//, '')),
        error: input.error ?? null,
        endedAt: now,
        durationSeconds: secondsBetween(session.startedAt, endedAt),
        endedBy: by ?? null,
      };
      await endSessionRow(tx, id, end);
      const taskStatus = await applySessionEnd(tx, session, end);
      await appendEvent(tx, {
        ts: now,
        kind: 'session.ended',
        taskId: session.taskId,
        entity: 'session',
        entityId: String(id),
        payload: {
          agent: session.agent,
          status: end.status,
          exitCode: end.exitCode,
          dodResult: end.dodResult,
          ...(by ? { endedBy: by } : {}),
        },
      });
      return { ...sessionView((await getSession(tx, id))!), ...(taskStatus ? { taskStatus } : {}) };
    });
    // The session settled its task only from in_progress (sessionTask.ts applySessionEnd).
    if (ended.taskStatus) await this.lifecycle?.changed(ended.taskId, 'in_progress', ended.taskStatus);
    return ended;
  }

  async list(input: SessionListInput): Promise<{ sessions: SessionView[]; total: number; nextOffset: number | null }> {
    const taskId = input.taskId === undefined ? undefined : parseId('task', input.taskId);
    const { sessions, total } = await this.db.read((db) =>
      listSessions(db, { taskId, status: input.status, agent: input.agent, limit: input.limit, offset: input.offset }),
    );
    const next = input.offset + sessions.length;
    const liveness = await sessionLiveness(sessions, thisMachine().id, this.prober);
    return {
      sessions: sessions.map((s) => ({
        ...sessionView(s),
        ...(liveness.has(s.id) ? { liveness: liveness.get(s.id) } : {}),
      })),
      total,
      nextOffset: next < total ? next : null,
    };
  }

  async get(ref: string | number): Promise<SessionView> {
    const id = parseId('session', ref);
    const session = await this.db.read((db) => getSession(db, id));
    if (!session) throw notFound('session', id);
    return sessionView(session);
  }
}

/** The answer to a retried session_start: the session its key started, if the call was the same. */
function replay(session: Session, taskId: number, agent: string): SessionStartResult {
  if (session.taskId !== taskId || session.agent !== agent.trim()) {
    throw new LedgerError(
      'ValidationError',
      `idempotencyKey was already used by session ${session.id} for ${taskKey(session.taskId)} and agent "${session.agent}"; use a new key for a different session`,
      { sessionId: session.id, taskId: session.taskId, agent: session.agent },
    );
  }
  return {
    sessionId: session.id,
    startedAt: session.startedAt,
    taskId: session.taskId,
    agent: session.agent,
    replayed: true,
  };
}
