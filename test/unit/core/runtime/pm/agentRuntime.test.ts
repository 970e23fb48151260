// The agent-PM services on both engines: the SQL of projects, sessions, tasks, contexts, handoffs
// and execution logs runs unchanged on the embedded store and on PostgreSQL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LedgerEngine } from '../../../../../src/core/ports/store';
import type { AgentDefinition } from '../../../../../src/core/agents/agentModel';
import type { AgentDirectory } from '../../../../../src/core/runtime/pm/projectRows';
import { ProjectService } from '../../../../../src/core/runtime/pm/projectService';
import { ProjectTaskService } from '../../../../../src/core/runtime/pm/projectTaskService';
import { HandoffService } from '../../../../../src/core/runtime/pm/handoffService';
import { AgentRuntimeService } from '../../../../../src/core/runtime/pm/agentRuntimeService';
import { ExecutionLogService } from '../../../../../src/core/runtime/pm/executionLogs';
import { LedgerError } from '../../../../../src/core/errors';
import { engineCases } from '../../../store/engines/engineKit';
import { tempDir } from '../../../../helpers/tmp';

const agent = (name: string, client: AgentDefinition['client']): AgentDefinition => ({
  name,
  description: `${name} agent`,
  client,
  model: null,
  scope: { read: ['**'], write: ['**'], exclude: [] },
  permissions: { level: 'commit', commands: [], never: [] },
  config: {},
  promptContent: `You are ${name}.`,
  file: `.agent-ledger/agents/${name}.yaml`,
});

const directory = (defs: AgentDefinition[]): AgentDirectory => ({
  current: () => ({ agents: defs, problems: [] }),
  lookup: (name) => {
    const d = defs.find((a) => a.name === name);
    if (!d) throw new LedgerError('AgentNotFound', name);
    return d;
  },
});

const cheap = { N: 1024, r: 8, p: 1, keylen: 32 };

function services(engine: LedgerEngine, workspace: string, now: () => Date) {
  const agents = directory([agent('coder', 'claude-code'), agent('tester', 'codex')]);
  return {
    projects: new ProjectService(engine, workspace, agents, now),
    tasks: new ProjectTaskService(engine, agents, now),
    handoffs: new HandoffService(engine, agents, now),
    runtime: new AgentRuntimeService(engine, workspace, agents, now, { sessionTtlSeconds: 60, scryptParams: cheap }),
    executions: new ExecutionLogService(engine, now),
  };
}

async function newTask(engine: LedgerEngine, title: string, parent: number | null = null): Promise<number> {
  const ts = new Date().toISOString();
  return engine.write((tx) =>
    tx.insert("INSERT INTO tasks (title, status, parent_id, created_at, updated_at) VALUES (?, 'open', ?, ?, ?)", [
      title,
      parent,
      ts,
      ts,
    ]),
  );
}

for (const engineCase of engineCases) {
  test(
    `agent PM on ${engineCase.name}: should_start, authenticate, get_my_task (waiting on another engine), report_completed, handoffs, execution logs`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      const workspace = tempDir();
      fs.mkdirSync(path.join(workspace, 'app'));
      try {
        let clock = Date.parse('2026-01-01T10:00:00Z');
        const now = () => new Date(clock);
        const a = services(await ledger.open(), workspace, now);
        const bEngine = await ledger.open();
        const b = services(bEngine, workspace, now);

        const web = await a.projects.create({ name: 'web', workingDirectory: 'app' });
        assert.equal(web.working_directory, path.join(workspace, 'app'));
        await assert.rejects(a.projects.create({ name: 'web', workingDirectory: '.' }), /already exists/);
        await assert.rejects(a.projects.create({ name: 'out', workingDirectory: '..' }), (e: unknown) =>
          LedgerError.is(e, 'ValidationError'),
        );
        await a.projects.addAgent('web', 'coder');
        await a.projects.addAgent('prj-1', 'coder');
        assert.deepEqual(
          (await b.projects.activeWithAgents()).map((p) => [p.project_id, p.agents]),
          [['prj-1', ['coder']]],
        );
        await a.runtime.setPasskey('coder', 'a long enough passkey');

        const parent = await newTask(bEngine, 'Parent');
        const child = await newTask(bEngine, 'Child', parent);
        assert.deepEqual(await a.runtime.shouldStart('coder', 'web'), { should_start: false });
        assert.equal((await a.tasks.assign(parent, 'coder')).project_id, 'prj-1', 'the agent’s only project');
        await a.tasks.updateStatus(parent, 'in_progress');
        assert.deepEqual(await b.runtime.shouldStart('coder', 'web'), { should_start: true, ai_type: 'claude' });
        assert.deepEqual(await b.runtime.shouldStart('tester', 'web'), { should_start: false });

        await assert.rejects(
          a.runtime.authenticate('coder', 'wrong passkey!!', 'web'),
          (e: unknown) => LedgerError.is(e, 'Unauthorized') && e.message === 'Invalid agent_id or passkey',
        );
        await assert.rejects(
          a.runtime.authenticate('tester', 'a long enough passkey', 'web'),
          (e: unknown) => LedgerError.is(e, 'Unauthorized') && e.message === 'Invalid agent_id or passkey',
        );
        const auth = await a.runtime.authenticate('coder', 'a long enough passkey', 'web');
        await assert.rejects(b.runtime.authenticate('coder', 'a long enough passkey', 'prj-1'), (e: unknown) =>
          LedgerError.is(e, 'SessionAlreadyRunning'),
        );
        assert.deepEqual(await b.runtime.shouldStart('coder', 'web'), { should_start: false });

        const mine = await a.runtime.myTask(auth.session_token);
        assert.equal(mine.task?.task_id, `task-${parent}`);
        await b.handoffs.saveContext(parent, { progress: 'half' }, 'coder');
        await assert.rejects(a.runtime.reportCompleted(auth.session_token, 'success', 'done'), (e: unknown) =>
          LedgerError.is(e, 'InvalidStatus'),
        );
        await b.tasks.updateStatus(child, 'done');
        clock += 5_000;
        const reported = await a.runtime.reportCompleted(auth.session_token, 'success', 'done', 'ship it');
        assert.equal(reported.status, 'done');
        const [run] = await b.executions.list({ agent: 'coder', limit: 5 });
        assert.deepEqual([run.status, run.result, run.durationSeconds], ['completed', 'success', 5]);
        const ctx = await b.handoffs.taskContext(parent, true);
        assert.deepEqual(
          ctx.history?.map((c) => c.progress),
          ['half', 'done'],
        );

        // A second session waits for its task; another engine assigns it.
        const next = await a.runtime.authenticate('coder', 'a long enough passkey', 'web');
        const later = await newTask(bEngine, 'Later');
        const waiting = a.runtime.myTask(next.session_token, 10_000);
        setTimeout(
          () => void b.tasks.assign(later, 'coder', 'web').then(() => b.tasks.updateStatus(later, 'in_progress')),
          100,
        );
        const got = await waiting;
        assert.equal(got.task?.task_id, `task-${later}`);

        // Handoffs: a pending one wakes a waiting reader on the other engine.
        const pending = a.handoffs.pending('tester', 10_000);
        setTimeout(
          () => void b.handoffs.create({ taskRef: later, from: 'coder', to: 'tester', summary: 'over to you' }),
          100,
        );
        const [h] = await pending;
        assert.equal(h.to_agent_id, 'tester');
        assert.equal((await b.handoffs.accept(h.handoff_id, 'tester')).status, 'accepted');
        assert.deepEqual(await a.handoffs.pending(undefined, 0), []);

        // Expiry: a minute without calls frees the (agent, project).
        clock += 61_000;
        await assert.rejects(a.runtime.myTask(next.session_token), (e: unknown) => LedgerError.is(e, 'Unauthorized'));
        assert.deepEqual(await b.runtime.shouldStart('coder', 'web'), { should_start: true, ai_type: 'claude' });
        const project = await b.projects.get('web');
        assert.deepEqual(project.task_counts, { done: 1, in_progress: 1 }, 'the sub-task belongs to no project');
      } finally {
        await ledger.dispose();
      }
    },
  );
}
