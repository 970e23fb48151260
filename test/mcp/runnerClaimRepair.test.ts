/**
 * The runner makes a task's worktree (worker_command: a tracked session) before it claims the run
 * (the claim needs to know the task may start). Between the two, the store may refuse the claim,
 * or the runner may die: no session may stay open without a run (it would count its task as
 * worked on and hold every overlapping task). A failed claim ends its session at once; a session
 * left by a runner that died is ended by the next claim of that task and agent, whose run works
 * in the same worktree. Real store (both engines with --pg), real Git worktrees, the real Runner.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ledgerEnv } from '../helpers/testLedger';
import { createServices } from '../../src/app/services';
import type { Services } from '../../src/app/services';
import { LedgerForRunner } from '../../src/core/runtime/runner/ledgerForRunner';
import type { LaunchTarget } from '../../src/core/runtime/runner/runnerPort';
import { Runner } from '../../src/core/runtime/runner/runner';
import { untiedRunGroup } from '../../src/core/runtime/runner/runSessions';
import { ProcessSupervisor } from '../../src/processes/processSupervisor';
import { parseId } from '../../src/core/ids';
import { pmWorld, runningTask } from './pmHelpers';

/** The runner's ledger as createRunner builds it: worker_command's worktree and session for each launch. */
function ledgerOf(
  services: Services,
  runnerId: string,
  claim?: (target: LaunchTarget) => Promise<string | undefined>,
): LedgerForRunner {
  const ledger = new LedgerForRunner({
    engine: services.engine,
    projects: services.projects,
    runtime: services.runtime,
    agents: services.agents,
    runnerId,
    worktreeFor: async (taskId, agentId, { allowOverlap }) => {
      const prepared = await services.workers.command(
        { taskId, agent: agentId, allowConcurrent: true, auto: false, force: false, allowOverlap },
        { sessionGroupId: untiedRunGroup },
      );
      return { cwd: prepared.cwd, sessionId: prepared.sessionId };
    },
  });
  if (claim) ledger.claimInstance = claim;
  return ledger;
}

interface SessionState {
  id: number;
  status: string;
  group: string | null;
  error: string | null;
}

async function sessionsOf(services: Services, taskId: string): Promise<SessionState[]> {
  const rows = await services.engine.read((db) =>
    db.all<{ id: number; status: string; session_group_id: string | null; error: string | null }>(
      'SELECT id, status, session_group_id, error FROM sessions WHERE task_id = ? ORDER BY id',
      [parseId('task', taskId)],
    ),
  );
  return rows.map((r) => ({ id: Number(r.id), status: r.status, group: r.session_group_id, error: r.error }));
}

test('worker_command then claim: a refused claim ends its session; a runner that died between the two is repaired by the next claim', async () => {
  const { repo, c } = await pmWorld();
  const saved = { ...process.env };
  Object.assign(process.env, ledgerEnv(repo));
  const services = await createServices({ workspace: repo, dbPath: process.env.AGENT_LEDGER_DB });
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'runner-claim-'));
  const supervisor = new ProcessSupervisor();
  try {
    const taskId = await runningTask(c, 'Web work', 'coder', 'web');

    // 1. The store refuses the claim (injected between the worktree and the claim).
    const refusing = ledgerOf(services, 'runner-a', () =>
      Promise.reject(new Error('injected: the store refused the claim')),
    );
    const runner = new Runner({
      ledger: refusing,
      supervisor,
      launcher: { launch: () => Promise.reject(new Error('never launched')), usage: () => Promise.resolve(null) },
      ledgerServer: { name: 'agent-ledger', command: process.execPath, args: [] },
      logDir,
      env: {},
    });
    const report = await runner.poll();
    assert.deepEqual(
      report.held.map((h) => [h.agentId, h.reason, h.detail]),
      [['coder', 'launchFailed', 'injected: the store refused the claim']],
    );
    const [refused] = await sessionsOf(services, taskId);
    assert.equal(refused.status, 'failed', 'the prepared session did not stay open');
    assert.match(refused.error ?? '', /its run could not be claimed: injected: the store refused the claim/);
    const worktree = path.join(repo, '.agent-ledger', 'worktrees');
    assert.ok(fs.existsSync(worktree) && fs.readdirSync(worktree).length === 1, 'the worktree stays for the next try');
    const open = await services.engine.read((db) =>
      db.get<{ n: number }>("SELECT COUNT(*) AS n FROM agent_instances WHERE status = 'running'"),
    );
    assert.equal(Number(open?.n), 0, 'nothing was claimed');

    // 2. A runner prepares the worktree and dies before claiming (no cleanup ran at all).
    const dying = ledgerOf(services, 'runner-b');
    const orphan = await dying.prepareLaunch('coder', 'prj-1');
    assert.ok(orphan.sessionId !== undefined);
    const left = (await sessionsOf(services, taskId)).find((s) => s.id === orphan.sessionId);
    assert.deepEqual(
      [left?.status, left?.group],
      ['running', untiedRunGroup],
      'a session open with no run: what the crash leaves',
    );

    // The next runner's launch of that task and agent claims it and closes what the dead one left.
    const next = ledgerOf(services, 'runner-c');
    const target = await next.prepareLaunch('coder', 'prj-1');
    assert.equal(target.cwd, orphan.cwd, 'it works in the same worktree');
    const executionId = await next.claimInstance(target);
    assert.ok(executionId);
    const after = await sessionsOf(services, taskId);
    assert.deepEqual(
      after.map((s) => [s.status, s.group]),
      [
        ['failed', untiedRunGroup],
        ['failed', untiedRunGroup],
        ['running', executionId],
      ],
    );
    assert.match(after[1].error ?? '', /its runner stopped between preparing the worktree and claiming the run/);
    await next.releaseInstance(executionId, 'test over');
  } finally {
    await supervisor.dispose();
    await services.dispose();
    fs.rmSync(logDir, { recursive: true, force: true });
    for (const key of Object.keys(process.env)) if (saved[key] === undefined) delete process.env[key];
    Object.assign(process.env, saved);
    await c.close();
  }
});
