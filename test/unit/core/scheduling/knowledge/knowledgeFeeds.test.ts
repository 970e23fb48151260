// The knowledge graph fed from what the ledger knows, on both engines: completed pipelines
// (from their files, or from their workflow's plan when the files are not on this machine) and
// Memory Bank entries; feeding twice inserts nothing, a changed or archived entry takes its
// facts along.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LedgerEngine } from '../../../../../src/core/ports/store';
import { KnowledgeService } from '../../../../../src/core/scheduling/knowledge/knowledgeService';
import type { MemoryFacts, PipelineFacts } from '../../../../../src/core/scheduling/knowledge/knowledgeExtractors';
import { engineCases } from '../../../store/engines/engineKit';

async function addPipeline(
  engine: LedgerEngine,
  spec: string,
  title: string,
  status: string,
  plan: { step: string; goal: string }[],
): Promise<void> {
  await engine.write(async (tx) => {
    const wf = await tx.insert(
      "INSERT INTO workflows (name, plan, kind, created_at, updated_at) VALUES (?, ?, 'pipeline', 't', 't')",
      [`Pipeline: ${title}`, JSON.stringify(plan)],
    );
    await tx.run(
      `INSERT INTO pipelines (workspace, spec_name, title, workflow_id, source_type, effort, flow_template, status, current_phase, rev, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'text', 'M', 'standard', ?, 'completed', 7, 't', 't')`,
      [`.specs/${spec}`, spec, title, wf, status],
    );
  });
}

async function facts(s: KnowledgeService, subject: string): Promise<string[]> {
  return (await s.query({ subject }, { limit: 500 })).triples.map((t) => `${t.predicate} ${t.object}`);
}

for (const engineCase of engineCases) {
  test(
    `knowledge feeds on ${engineCase.name}: pipelines and the Memory Bank, once, and incrementally`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const now = 5_000_000;
        const engine = await ledger.open();
        await addPipeline(engine, '20260101-login', 'Add login', 'completed', [
          { step: 'phase-1', goal: 'Analysis' },
          { step: 'phase-2', goal: 'Implementation' },
        ]);
        await addPipeline(engine, '20260102-cache', 'Cache pages', 'completed', [
          { step: 'phase-1', goal: 'Analysis' },
        ]);
        await addPipeline(engine, '20260103-wip', 'Still running', 'running', [{ step: 'phase-1', goal: 'Analysis' }]);
        const taskId = await engine.write((tx) =>
          tx.insert(
            "INSERT INTO tasks (title, status, areas, created_at, updated_at) VALUES ('Pick a hash', 'done', '[]', 't', 't')",
            [],
          ),
        );
        // The cache pipeline's files are here (phases with durations and a task list); the login pipeline's are not.
        const cache: PipelineFacts = {
          spec_name: '20260102-cache',
          title: 'Cache pages',
          status: 'completed',
          workspace: '.specs/20260102-cache',
          phases: {
            'phase-1': { status: 'completed', metrics: { duration_ms: 4000 } },
            'phase-2': { status: 'completed', metrics: { duration_ms: 9000 } },
          },
          phaseLabels: { 'phase-1': 'Analysis', 'phase-2': 'Build' },
          implementationPhase: 'phase-2',
          tasks: [
            { id: '1', title: 'Cache layer', mode: 'sequential', status: 'passed', ledger_task_id: `task-${taskId}` },
          ],
        };
        let memories: MemoryFacts[] = [
          {
            id: 'hash-choice',
            category: 'decisions',
            title: 'Hash with xxhash',
            summary: 'For cache pages',
            status: 'active',
            file: '.agent-ledger/memory/decisions/hash-choice.md',
            content: `Decided in task-${taskId}; see also task-99999.`,
          },
        ];
        const pipelineCalls: string[] = [];
        const onThisMachine = new Map<string, PipelineFacts>([[cache.workspace!, cache]]);
        const s = new KnowledgeService(engine, () => now, {
          pipeline: async (workspace) => {
            pipelineCalls.push(workspace);
            return onThisMachine.get(workspace) ?? null;
          },
          memories: () => memories,
        });

        assert.deepEqual(await s.feed(), { workflows: 0, pipelines: 2, memories: 1 });
        assert.deepEqual(
          pipelineCalls.sort(),
          ['.specs/20260101-login', '.specs/20260102-cache'],
          'a running pipeline is not read',
        );
        const login = await s.suggestPlan('Add login');
        assert.deepEqual(
          login.coverage.suggested_tasks,
          ['20260101-login/phase-1', '20260101-login/phase-2'],
          'from the plan when the files are elsewhere',
        );
        assert.deepEqual(
          login.fragments[0].edges.map((e) => `${e.from.nodeId}->${e.to.nodeId}`),
          ['20260101-login/phase-1->20260101-login/phase-2'],
        );
        const plan = await s.suggestPlan('cache-pages');
        assert.deepEqual(plan.coverage, {
          total_tasks: 3,
          suggested_tasks: ['20260102-cache/phase-1', '20260102-cache/phase-2', '20260102-cache/task-1'],
          excluded_tasks: [],
          missing_dependencies: [],
          unknown_dependencies: [],
        });
        assert.deepEqual(
          plan.fragments[0].nodes.map((n) => [n.id, n.label, n.attributes.kg_source, n.attributes.kg_duration ?? null]),
          [
            ['20260102-cache/phase-1', 'Analysis', 'pipeline', 4],
            ['20260102-cache/task-1', 'Cache layer', 'pipeline', null],
            ['20260102-cache/phase-2', 'Build', 'pipeline', 9],
          ],
        );
        assert.deepEqual(await facts(s, 'memory:decisions/hash-choice'), [
          'label Hash with xxhash',
          'category decisions',
          'summary For cache pages',
          `mentions task-${taskId}`,
          'about cache-pages',
        ]);

        // Feeding again inserts nothing and writes nothing.
        const total = (await s.export({})).total;
        const seq = engine.seq;
        assert.deepEqual(await s.feed(), { workflows: 0, pipelines: 0, memories: 0 });
        assert.equal((await s.export({})).total, total);
        assert.equal(engine.seq, seq, 'nothing pending: no write at all');

        // A changed entry replaces its facts; one archived (or removed) takes them along.
        memories = [{ ...memories[0], summary: 'For every page', content: 'No task named.' }];
        assert.equal((await s.feed()).memories, 1);
        assert.deepEqual(await facts(s, 'memory:decisions/hash-choice'), [
          'label Hash with xxhash',
          'category decisions',
          'summary For every page',
        ]);
        memories = [{ ...memories[0], status: 'archived' }];
        assert.equal((await s.feed()).memories, 1);
        assert.deepEqual(await facts(s, 'memory:decisions/hash-choice'), []);
        assert.deepEqual(await s.feed(), { workflows: 0, pipelines: 0, memories: 0 });

        // The login pipeline's files appear (a pull): fed again from them, the plan's guesses replaced.
        assert.deepEqual(await facts(s, 'task:20260101-login/phase-2'), [
          'label Implementation',
          'depends_on 20260101-login/phase-1',
        ]);
        onThisMachine.set('.specs/20260101-login', {
          spec_name: '20260101-login',
          title: 'Add login',
          status: 'completed',
          workspace: '.specs/20260101-login',
          phases: {
            'phase-1': { status: 'completed', metrics: { duration_ms: 2000 } },
            'phase-3': { status: 'completed', metrics: { duration_ms: 6000 } },
          },
          phaseLabels: { 'phase-1': 'Analysis', 'phase-3': 'Build the form' },
        });
        assert.deepEqual(await s.feed(), { workflows: 0, pipelines: 1, memories: 0 });
        assert.deepEqual(await facts(s, 'task:20260101-login/phase-2'), [], 'the phase only the plan named is gone');
        assert.deepEqual(await facts(s, 'task:20260101-login/phase-3'), [
          'label Build the form',
          'duration 6',
          'depends_on 20260101-login/phase-1',
        ]);
        assert.deepEqual(await facts(s, 'task:20260101-login/phase-1'), ['label Analysis', 'duration 2']);
        assert.deepEqual(
          (await s.query({ subject: 'add-login', predicate: 'includes' }, { limit: 50 })).triples.map((t) => t.object),
          ['20260101-login/phase-1', '20260101-login/phase-3'],
        );
        assert.deepEqual(await s.feed(), { workflows: 0, pipelines: 0, memories: 0 }, 'fed from its files: not again');

        // A pipeline that completes later is fed on the next read.
        await engine.write((tx) =>
          tx.run(
            "UPDATE pipelines SET status = 'completed', rev = 8, updated_at = 'u' WHERE spec_name = '20260103-wip'",
            [],
          ),
        );
        assert.deepEqual((await s.suggestPlan('still-running')).coverage.suggested_tasks, ['20260103-wip/phase-1']);

        // Another process's service sees the same graph and has nothing to feed.
        const other = new KnowledgeService(await ledger.open(), () => now, { memories: () => memories });
        assert.deepEqual(await other.feed(), { workflows: 0, pipelines: 0, memories: 0 });
      } finally {
        await ledger.dispose();
      }
    },
  );
}
