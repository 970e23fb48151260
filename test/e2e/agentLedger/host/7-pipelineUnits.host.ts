// The words of the Pipelines view and the pipeline webview's model, as plain functions with
// literal inputs (run in the extension host beside the other in-host unit tests).
import assert from 'node:assert/strict';
import type { FlowTemplate } from '../../../../src/core/pipelines/engine/flowTemplate';
import type {
  PhaseView,
  PipelineDetail,
  PipelineSummary,
  TaskView,
} from '../../../../src/core/pipelines/pipelineQueries';
import { formatTokens } from '../../../../src/core/format';
import {
  checkpointTitle,
  decisionWord,
  phaseDescription,
  pipelineDescription,
  pipelineTaskDescription,
} from '../../../../src/views/pipelineText';
import { pipelineModel } from '../../../../src/views/pipelineModel';

const labels: Record<string, string> = {
  'phase-3': 'Design',
  'phase-3b': 'Design Review',
  'checkpoint-a': 'Human Reviews Design',
  'phase-5': 'Implementation',
};
const labelOf = (id: string): string | undefined => labels[id];

const phase = (over: Partial<PhaseView>): PhaseView => ({
  id: 'phase-3',
  label: 'Design',
  kind: 'agent',
  status: 'completed',
  current: false,
  startedAt: null,
  completedAt: null,
  durationMs: 125_000,
  tokens: 12_345,
  model: 'opus',
  runs: 1,
  revision: 0,
  verdict: null,
  findings: [],
  artifact: null,
  ...over,
});

describe('pipeline words', () => {
  it('names checkpoints, gates and revision limits as a person reads them', () => {
    assert.equal(checkpointTitle('checkpoint-a', labelOf), 'Checkpoint A: Human Reviews Design');
    assert.equal(checkpointTitle('checkpoint-a', labelOf, true), 'Checkpoint A');
    assert.equal(checkpointTitle('task-2', labelOf), 'Task 2 (human)');
    assert.equal(checkpointTitle('phase-3b-retry-limit', labelOf), 'Design Review: revision limit');
    assert.equal(decisionWord('approve'), 'approved');
    assert.equal(decisionWord('skip'), 'skipped');
  });

  it('describes a pipeline by what it waits for or where it is, its effort, tokens and time', () => {
    const base = {
      workspace: '.specs/x',
      title: 'X',
      effort: 'M',
      status: 'running',
      currentPhase: 'phase-3',
      waiting: null,
      totalTokens: 6040,
      totalDurationMs: 8_200,
    } as unknown as PipelineSummary;
    assert.equal(pipelineDescription(base, labelOf), 'at Design · M · 6.0k tokens · 8s');
    const waiting = {
      ...base,
      status: 'awaiting_human',
      waiting: {
        kind: 'checkpoint',
        name: 'checkpoint-a',
        phase: 'checkpoint-a',
        options: [],
        task_id: null,
        requested_at: '',
      },
    } as PipelineSummary;
    assert.equal(pipelineDescription(waiting, labelOf), 'waits for you: Checkpoint A · M · 6.0k tokens · 8s');
    assert.equal(
      pipelineDescription({ ...base, status: 'completed', totalTokens: 0, totalDurationMs: 0 }, labelOf),
      'completed · M',
    );
    assert.equal(formatTokens(850), '850 tokens');
    assert.equal(formatTokens(123_456), '123k tokens');
    assert.equal(formatTokens(2_500_000), '2.5M tokens');
  });

  it('describes phases: waiting first, metrics, verdict, findings, revision round, who decided', () => {
    assert.equal(
      phaseDescription(
        phase({ verdict: 'APPROVE_WITH_NOTES', findings: [{ severity: 'MAJOR', description: 'x' }], revision: 1 }),
        null,
        undefined,
      ),
      '2m 05s · 12k tokens · opus · APPROVE_WITH_NOTES · 1 finding · revision 1',
    );
    assert.equal(
      phaseDescription(phase({ status: 'in_progress' }), null, undefined),
      'running · 2m 05s · 12k tokens · opus',
    );
    assert.equal(phaseDescription(phase({ status: 'skipped' }), null, undefined), 'skipped');
    assert.equal(phaseDescription(phase({ status: 'pending', revision: 2 }), null, undefined), 'revision 2');
    const checkpoint = phase({ id: 'checkpoint-a', kind: 'checkpoint', durationMs: 0, tokens: 0, model: null });
    assert.equal(
      phaseDescription({ ...checkpoint, status: 'in_progress' }, 'checkpoint', undefined),
      'waits for your decision',
    );
    const decided = {
      name: 'checkpoint-a',
      phase: 'checkpoint-a',
      kind: 'checkpoint' as const,
      decision: 'approve',
      comment: null,
      decided_by: 'alice',
      via: 'editor',
      decided_at: '',
    };
    assert.equal(phaseDescription(checkpoint, null, decided), 'approved by alice');
    const task = {
      id: '1',
      title: 'T',
      mode: 'sequential',
      status: 'passed',
      attempts: 2,
      verdict: 'PASS',
      findings: [],
      ledgerTaskId: 'task-7',
      filesChanged: 1,
    } as TaskView;
    assert.equal(pipelineTaskDescription(task, false), 'passed · PASS · 2 attempts · task-7 · 1 file');
    assert.equal(
      pipelineTaskDescription(
        {
          ...task,
          mode: 'human',
          status: 'pending',
          attempts: 0,
          verdict: null,
          ledgerTaskId: null,
          filesChanged: null,
        },
        true,
      ),
      'waits for you (human task)',
    );
  });

  it('builds the webview model: what the checkpoint presents, where a rejection goes, tokens per model', () => {
    const detail = {
      workspace: '.specs/x',
      folder: '/ws/.specs/x',
      title: 'X',
      status: 'awaiting_human',
      effort: 'M',
      flowTemplate: 'standard',
      currentPhase: 'checkpoint-a',
      branch: null,
      source: { type: 'text', url: null, id: null, core_text: 'x' },
      totals: { tokens: 300, durationMs: 3000 },
      waiting: {
        kind: 'checkpoint',
        name: 'checkpoint-a',
        phase: 'checkpoint-a',
        options: ['approve', 'reject'],
        presentToUser: 'Read it',
        requestedAt: '2026-01-01T00:00:00.000Z',
      },
      phases: [
        phase({
          id: 'phase-3',
          model: 'opus',
          tokens: 200,
          durationMs: 2000,
          artifact: { name: 'design.md', path: '/ws/.specs/x/design.md', exists: true },
        }),
        phase({
          id: 'phase-3b',
          label: 'Design Review',
          kind: 'review',
          model: 'sonnet',
          tokens: 100,
          durationMs: 1000,
        }),
        phase({
          id: 'checkpoint-a',
          label: 'Human Reviews Design',
          kind: 'checkpoint',
          status: 'in_progress',
          current: true,
          model: null,
          tokens: 0,
          durationMs: 0,
          runs: 0,
        }),
      ],
      tasks: [],
      decisions: [
        {
          name: 'checkpoint-a',
          phase: 'checkpoint-a',
          kind: 'checkpoint',
          decision: 'reject',
          comment: 'Bound it',
          decided_by: 'bob',
          via: 'cli',
          decided_at: '2026-01-01T00:00:00.000Z',
        },
      ],
      artifacts: [{ name: 'design.md', path: '/ws/.specs/x/design.md' }],
      createdAt: '',
      updatedAt: '',
      completedAt: null,
    } as unknown as PipelineDetail;
    const flow = {
      phases: [
        {
          id: 'checkpoint-a',
          label: 'Human Reviews Design',
          kind: 'checkpoint',
          present: ['design.md', 'review-design.md'],
          revises: 'phase-3',
          inputs: [],
        },
      ],
    } as unknown as FlowTemplate;
    const m = pipelineModel(detail, { name: 'ws', root: '/ws' }, flow);
    assert.equal(m.waiting?.label, 'Checkpoint A: Human Reviews Design');
    assert.equal(m.waiting?.rejectTo, 'Design');
    assert.equal(m.waiting?.retryLimit, false);
    assert.deepEqual(
      m.waiting?.present.map((a) => a.name),
      ['design.md'],
      'only what exists is offered to read',
    );
    assert.deepEqual(m.models, [
      { model: 'opus', tokens: 200, durationMs: 2000, runs: 1 },
      { model: 'sonnet', tokens: 100, durationMs: 1000, runs: 1 },
    ]);
    assert.deepEqual(
      m.phases.map((p) => [p.id, p.waiting, p.decision?.decision ?? null]),
      [
        ['phase-3', false, null],
        ['phase-3b', false, null],
        ['checkpoint-a', true, 'reject'],
      ],
    );
    assert.deepEqual(
      m.decisions.map((d) => [d.label, d.by, d.via, d.comment]),
      [['Checkpoint A: Human Reviews Design', 'bob', 'cli', 'Bound it']],
    );
    // Without the flow (a broken override) the model still builds.
    assert.equal(pipelineModel(detail, { name: 'ws', root: '/ws' }, undefined).waiting?.rejectTo, null);
  });
});
