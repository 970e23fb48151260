import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Task } from '../../../../../src/core/tasks/taskModel';
import type { Workflow } from '../../../../../src/core/workflows/workflowModel';
import type { MemoryEntry } from '../../../../../src/core/memory/memoryModel';
import type { PipelineState } from '../../../../../src/core/pipelines/engine/pipelineState';
import {
  isWorkflowFinished,
  memoryTriples,
  mentionedTaskIds,
  pipelineTriples,
  workflowTriples,
} from '../../../../../src/core/scheduling/knowledge/knowledgeExtractors';
import type {
  MemoryFacts,
  PipelineFacts,
  TaskFacts,
  WorkflowFacts,
} from '../../../../../src/core/scheduling/knowledge/knowledgeExtractors';
import { createKnowledgeGraph, insertTriples } from '../../../../../src/core/scheduling/knowledge/knowledgeGraph';
import { suggestPlan } from '../../../../../src/core/scheduling/knowledge/planSuggestion';

// The ledger's own model objects fit the extractors' inputs as they are (checked by the compiler).
export const modelFits: [TaskFacts, WorkflowFacts['workflow'], MemoryFacts, PipelineFacts] = [
  {} as Task,
  {} as Workflow,
  {} as MemoryEntry,
  {} as PipelineState,
];

const task = (id: number, title: string, status: string, extra: Partial<TaskFacts> = {}): TaskFacts => ({
  id,
  title,
  status,
  result: status === 'done' ? 'success' : null,
  ...extra,
});

/** A small ledger: a finished workflow with a failed and a cancelled task, and a pipeline with the same title. */
const oauth: WorkflowFacts = {
  workflow: { id: 3, name: 'Add OAuth login' },
  tasks: [
    task(1, 'Design the token flow', 'done', { durationSeconds: 600, areas: ['docs/auth.md'] }),
    task(2, 'Implement the provider', 'done', {
      areas: ['src/auth/**', 'src/auth/**'],
      assignee: 'coder',
      parentId: 1,
    }),
    task(3, 'Write tests', 'done', { result: 'partial_success' }),
    task(4, 'Spike: SAML', 'cancelled'),
    task(5, 'Update docs', 'failed'),
  ],
  dependencies: [
    { taskId: 2, dependsOn: 1 },
    { taskId: 3, dependsOn: 2 },
    { taskId: 5, dependsOn: 2 },
    { taskId: 3, dependsOn: 4 },
  ],
};

const oauthPipeline: PipelineFacts = {
  spec_name: '20250101-oauth',
  title: 'Add OAuth login',
  status: 'completed',
  workspace: '.specs/20250101-oauth',
  phases: {
    setup: { status: 'completed' },
    analysis: { status: 'completed', metrics: { duration_ms: 61_400 } },
    design: { status: 'completed', metrics: { duration_ms: 0 } },
    review: { status: 'skipped' },
    implementation: { status: 'completed', metrics: { duration_ms: 300_000 } },
  },
  phaseLabels: { analysis: 'Analysis' },
};

test('a finished workflow becomes a plan of what worked: tasks, labels, durations, areas, dependencies', () => {
  const triples = workflowTriples(oauth);
  const lines = triples.map(
    (t) => `${t.subject} ${t.predicate} ${t.object}${t.confidence !== undefined ? ` @${t.confidence}` : ''}`,
  );
  assert.deepEqual(lines, [
    'add-oauth-login label Add OAuth login',
    'add-oauth-login includes task-1 @1',
    'add-oauth-login includes task-2 @1',
    'add-oauth-login includes task-3 @0.6',
    'task:task-1 label Design the token flow',
    'task:task-1 duration 600',
    'task:task-1 area docs/auth.md',
    'task:task-2 label Implement the provider',
    'task:task-2 area src/auth/**',
    'task:task-2 assignee coder',
    'task:task-2 part_of task-1',
    'task:task-3 label Write tests',
    'task:task-2 depends_on task-1',
    'task:task-3 depends_on task-2',
  ]);
  assert.ok(triples.slice(1).every((t) => t.source === 'workflow' && t.provenance?.[0].sourceId === 'wf-3'));
  assert.equal(triples[0].source, undefined, 'the goal label is shared with pipelines of the same name: no source');
  assert.deepEqual(
    workflowTriples({ workflow: { id: 9, name: '???' }, tasks: [task(1, 'x', 'done')] })[0].subject,
    'wf-9',
  );
  assert.deepEqual(workflowTriples({ workflow: { id: 9, name: 'x' }, tasks: [task(1, 'x', 'failed')] }), []);
  assert.equal(isWorkflowFinished(oauth.tasks), true);
  assert.equal(isWorkflowFinished([...oauth.tasks, task(6, 'y', 'in_progress')]), false);
});

test('a completed pipeline becomes a chain of its completed phases; others give nothing', () => {
  const lines = pipelineTriples(oauthPipeline).map((t) => `${t.subject} ${t.predicate} ${t.object}`);
  assert.deepEqual(lines, [
    'add-oauth-login label Add OAuth login',
    'add-oauth-login includes 20250101-oauth/analysis',
    'task:20250101-oauth/analysis label Analysis',
    'task:20250101-oauth/analysis duration 61',
    'add-oauth-login includes 20250101-oauth/design',
    'task:20250101-oauth/design label design',
    'task:20250101-oauth/design depends_on 20250101-oauth/analysis',
    'add-oauth-login includes 20250101-oauth/implementation',
    'task:20250101-oauth/implementation label implementation',
    'task:20250101-oauth/implementation duration 300',
    'task:20250101-oauth/implementation depends_on 20250101-oauth/design',
  ]);
  assert.deepEqual(pipelineTriples({ ...oauthPipeline, status: 'running' }), []);
});

test("a completed pipeline's task list: tasks that passed join the plan inside the phase that ran them", () => {
  const withTasks: PipelineFacts = {
    ...oauthPipeline,
    implementationPhase: 'implementation',
    tasks: [
      {
        id: '1',
        title: 'Token store',
        mode: 'sequential',
        status: 'passed',
        files: ['src/auth/store.ts'],
        ledger_task_id: 'task-12',
      },
      { id: '2', title: 'Provider', mode: 'sequential', status: 'accepted', files: [], ledger_task_id: null },
      { id: '3', title: 'Docs', mode: 'parallel', status: 'passed' },
      { id: '4', title: 'Dropped', mode: 'sequential', status: 'failed' },
    ],
  };
  const lines = pipelineTriples(withTasks)
    .slice(11)
    .map((t) => `${t.subject} ${t.predicate} ${t.object}${t.confidence !== undefined ? ` @${t.confidence}` : ''}`);
  assert.deepEqual(lines, [
    'add-oauth-login includes 20250101-oauth/task-1 @1',
    'task:20250101-oauth/task-1 label Token store',
    'task:20250101-oauth/task-1 area src/auth/store.ts',
    'task:20250101-oauth/task-1 ledger_task task-12',
    'task:20250101-oauth/task-1 part_of 20250101-oauth/implementation',
    'task:20250101-oauth/task-1 depends_on 20250101-oauth/design',
    'task:20250101-oauth/implementation depends_on 20250101-oauth/task-1',
    'add-oauth-login includes 20250101-oauth/task-2 @0.8',
    'task:20250101-oauth/task-2 label Provider',
    'task:20250101-oauth/task-2 part_of 20250101-oauth/implementation',
    'task:20250101-oauth/task-2 depends_on 20250101-oauth/design',
    'task:20250101-oauth/task-2 depends_on 20250101-oauth/task-1',
    'task:20250101-oauth/implementation depends_on 20250101-oauth/task-2',
    'add-oauth-login includes 20250101-oauth/task-3 @1',
    'task:20250101-oauth/task-3 label Docs',
    'task:20250101-oauth/task-3 part_of 20250101-oauth/implementation',
    'task:20250101-oauth/task-3 depends_on 20250101-oauth/design',
    'task:20250101-oauth/implementation depends_on 20250101-oauth/task-3',
  ]);
  assert.equal(
    pipelineTriples({ ...withTasks, implementationPhase: null }).length,
    11,
    'without the phase that ran them, tasks are left out',
  );
});

test('Memory Bank entries mention the ledger tasks and are about the goals they name', () => {
  assert.deepEqual(
    mentionedTaskIds({
      title: 'See task-12',
      summary: 'and Task #3',
      content: 'also task_40, task 7, not subtask-9 nor task-0',
    }),
    [3, 7, 12, 40],
  );
  const targets = {
    hasTask: (id: number) => id !== 40,
    goals: new Map([
      ['add-oauth-login', 'Add OAuth login'],
      ['fix-flaky-ci', 'Fix flaky CI'],
      ['ci', 'CI'],
    ]),
  };
  const entry: MemoryFacts = {
    id: 'use-pkce',
    category: 'decisions',
    title: 'Use PKCE',
    summary: 'Chosen while we worked to add OAuth login (task-2)',
    status: 'active',
    file: '.agent-ledger/memory/decisions/use-pkce.md',
    content: 'Decided in task 40 (gone) and confirmed in fix-flaky-ci. CI is short.',
  };
  const links = memoryTriples([entry], targets)
    .filter((t) => t.predicate === 'mentions' || t.predicate === 'about')
    .map((t) => `${t.predicate} ${t.object}`);
  assert.deepEqual(
    links,
    ['mentions task-2', 'about add-oauth-login', 'about fix-flaky-ci'],
    'an unknown task and a label shorter than 4 characters link nothing',
  );
});

test('active Memory Bank entries become queryable facts', () => {
  const entries: MemoryFacts[] = [
    {
      id: 'test-framework',
      category: 'tooling',
      title: 'Test framework',
      summary: 'node:test with tsx',
      status: 'active',
      file: '.agent-ledger/memory/tooling/test-framework.md',
    },
    {
      id: 'old',
      category: 'tooling',
      title: 'Old',
      summary: null,
      status: 'archived',
      file: '.agent-ledger/memory/tooling/old.md',
    },
  ];
  assert.deepEqual(
    memoryTriples(entries).map((t) => [t.subject, t.predicate, t.object, t.provenance?.[0].sourceId]),
    [
      ['memory:tooling/test-framework', 'label', 'Test framework', '.agent-ledger/memory/tooling/test-framework.md'],
      ['memory:tooling/test-framework', 'category', 'tooling', '.agent-ledger/memory/tooling/test-framework.md'],
      [
        'memory:tooling/test-framework',
        'summary',
        'node:test with tsx',
        '.agent-ledger/memory/tooling/test-framework.md',
      ],
    ],
  );
});

test('known answer: kg_suggest_plan on a ledger of finished workflows and a pipeline', () => {
  const ci: WorkflowFacts = {
    workflow: { id: 4, name: 'Fix flaky CI' },
    tasks: [task(6, 'Find the flake', 'done'), task(7, 'Pin the runner', 'done')],
    dependencies: [{ taskId: 7, dependsOn: 6 }],
  };
  const triples = [...workflowTriples(oauth), ...workflowTriples(ci), ...pipelineTriples(oauthPipeline)];
  let kg = insertTriples(createKnowledgeGraph(), triples, 0).kg;
  const again = insertTriples(kg, triples, 1);
  assert.deepEqual([again.created, again.updated], [0, 0], 'feeding the same ledger again changes nothing');
  kg = again.kg;

  const s = suggestPlan(kg, 'Add OAuth login', { preferred_sources: ['workflow'] });
  assert.deepEqual(s.coverage, {
    total_tasks: 6,
    suggested_tasks: [
      '20250101-oauth/analysis',
      '20250101-oauth/design',
      '20250101-oauth/implementation',
      'task-1',
      'task-2',
      'task-3',
    ],
    excluded_tasks: [],
    missing_dependencies: [],
    unknown_dependencies: [],
  });
  assert.deepEqual(s.sources, [
    { source: 'pipeline', tasks: 3 },
    { source: 'workflow', tasks: 3 },
  ]);
  assert.deepEqual(
    s.fragments.map((f) => f.id),
    ['add-oauth-login-fragment-1', 'add-oauth-login-fragment-2'],
  );
  assert.deepEqual(
    s.fragments[0].nodes.map((n) => [n.id, n.label, n.attributes.kg_confidence]),
    [
      ['task-1', 'Design the token flow', 1],
      ['task-2', 'Implement the provider', 1],
      ['task-3', 'Write tests', 0.6],
    ],
  );
  assert.equal(s.fragments[0].nodes[0].attributes.kg_duration, 600);
  assert.deepEqual(s.rationale.slice(0, 3), [
    "Plan 'Add OAuth login': 6/6 task(s) suggested.",
    'Fragment 1 – source workflow: 3 task(s).',
    'Fragment 2 – other sources: 3 task(s).',
  ]);

  const without = suggestPlan(kg, 'add-oauth-login', { exclude_tasks: ['task-1'] });
  assert.deepEqual(without.coverage.missing_dependencies, [{ task: 'task-2', dependencies: ['task-1'] }]);
  assert.deepEqual(without.coverage.excluded_tasks, ['task-1']);
  assert.equal(without.coverage.suggested_tasks.length, 5);
  assert.deepEqual(suggestPlan(kg, 'Fix flaky CI').coverage.suggested_tasks, ['task-6', 'task-7']);
});
