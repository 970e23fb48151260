import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerError } from '../../../../src/core/errors';
import { parseFlow } from '../../../../src/core/pipelines/engine/flowParse';
import { nextStep } from '../../../../src/core/pipelines/engine/nextStep';
import { applyDecision } from '../../../../src/core/pipelines/engine/checkpointDecisions';
import { markIssued } from '../../../../src/core/pipelines/engine/phaseReport';
import { defaultFlow, newState, play } from './engineFixture';

const twoTasks = '## Task 1: A\nmode: sequential\n\n## Task 2: B\nmode: sequential\n';

test('the phases each effort runs, in order (seed: S skips 2 and 3b, M skips 4b and checkpoint B, L skips nothing)', () => {
  const common = ['phase-5[1]', 'phase-6[1]', 'final-verification'];
  assert.deepEqual(play(newState('S', { createBranch: true, skipPr: true }), {}).trace, [
    'setup',
    'phase-1',
    'phase-3',
    'checkpoint-a',
    'phase-4',
    'phase-4b',
    'checkpoint-b',
    ...common,
    'improvement',
    'final-summary',
    'done',
  ]);
  assert.deepEqual(play(newState('M'), {}).trace, [
    'phase-1',
    'phase-2',
    'phase-3',
    'phase-3b',
    'checkpoint-a',
    'phase-4',
    ...common,
    'pr-creation',
    'improvement',
    'final-summary',
    'done',
  ]);
  assert.deepEqual(play(newState('L'), {}).trace, [
    'phase-1',
    'phase-2',
    'phase-3',
    'phase-3b',
    'checkpoint-a',
    'phase-4',
    'phase-4b',
    'checkpoint-b',
    ...common,
    'pr-creation',
    'improvement',
    'final-summary',
    'done',
  ]);
  const done = play(newState('M'), {});
  assert.equal(done.state.status, 'completed');
  assert.deepEqual(done.steps.at(-1), {
    type: 'done',
    summary: 'Pipeline completed: 12 phases, 2 skipped',
    summaryArtifact: 'summary.md',
  });
});

test('deterministic: the same state gives the same step, and handing it out twice changes nothing', () => {
  const s = newState('M');
  const step = nextStep(s, defaultFlow);
  assert.deepEqual(step, nextStep(structuredClone(s), defaultFlow));
  const issued = markIssued(s, step, '2026-04-01T00:00:01.000Z', { 'analysis.md': null });
  assert.notEqual(issued, s, 'handing an action out records it…');
  assert.equal(s.pending, null, '…without touching the state it was given');
  assert.equal(markIssued(issued, step, '2026-04-01T00:00:09.000Z', {}), issued, 'handing it out again writes nothing');
  assert.deepEqual(nextStep(issued, defaultFlow), step);
  const half = play(newState('L'), {}, defaultFlow, 6).state;
  assert.deepEqual(
    nextStep(half, defaultFlow),
    nextStep(JSON.parse(JSON.stringify(half)), defaultFlow),
    'a state read back from JSON decides the same',
  );
});

test('REVISE loops back to the design at most max_revisions times, then a person decides: approve continues, reject abandons', () => {
  const revise = { 'review-design.md': ['REVISE', 'REVISE', 'REVISE'] };
  const approved = play(newState('M'), { verdicts: revise, decisions: { 'phase-3b-retry-limit': ['approve'] } });
  assert.deepEqual(approved.trace.slice(0, 10), [
    'phase-1',
    'phase-2',
    'phase-3',
    'phase-3b',
    'phase-3',
    'phase-3b',
    'phase-3',
    'phase-3b',
    'phase-3b-retry-limit',
    'checkpoint-a',
  ]);
  assert.deepEqual(
    approved.outcomes.slice(3, 8).map((o) => o.next_action_hint),
    ['revision_required', 'proceed', 'revision_required', 'proceed', 'revision_required'],
  );
  assert.match(approved.outcomes[7].warning, /revision limit reached: a person decides at phase-3b-retry-limit/);
  assert.equal(approved.state.status, 'completed');
  const abandoned = play(newState('M'), { verdicts: revise, decisions: { 'phase-3b-retry-limit': ['reject'] } });
  assert.deepEqual(abandoned.trace.slice(-2), ['phase-3b-retry-limit', 'done']);
  assert.equal(abandoned.state.status, 'abandoned');
  assert.match(
    (abandoned.steps.at(-1) as { summary: string }).summary,
    /^Pipeline abandoned at phase-3b: phase-3b-retry-limit rejected by tester: please change$/,
  );
});

test('a rejected checkpoint sends the pipeline back with the comment; the design revision reads the review', () => {
  const run = play(newState('M'), { decisions: { 'checkpoint-a': ['reject', 'approve'] } });
  assert.deepEqual(run.trace.slice(0, 8), [
    'phase-1',
    'phase-2',
    'phase-3',
    'phase-3b',
    'checkpoint-a',
    'phase-3',
    'phase-3b',
    'checkpoint-a',
  ]);
  const redo = run.steps[5];
  assert.equal(redo.type, 'spawn_agent');
  if (redo.type !== 'spawn_agent') return;
  assert.deepEqual(redo.inputs, ['request.md', 'analysis.md', 'investigation.md', 'review-design.md']);
  assert.equal(redo.revision?.by, 'checkpoint-a');
  assert.match(redo.revision?.comments[0] ?? '', /^please change — tester, /);
});

test('implementation: parallel batches, code review per task, FAIL re-implements only that task, and is bounded too', () => {
  const tasks =
    '## Task 1: A\nmode: parallel\n\n## Task 2: B\nmode: parallel\n\n## Task 3: C\nmode: sequential\n\n## Task 4: D\nmode: human\n';
  const run = play(newState('M'), { tasks, verdicts: { 'review-2.md': ['FAIL', 'PASS'] } });
  const impl = run.trace.slice(run.trace.indexOf('phase-4') + 1, run.trace.indexOf('final-verification'));
  assert.deepEqual(impl, [
    'phase-5[1,2]',
    'phase-6[1,2]',
    'phase-5[2]',
    'phase-6[2]',
    'phase-5[3]',
    'phase-6[3]',
    'task-4',
  ]);
  assert.deepEqual(
    run.state.tasks.map((t) => [t.id, t.status, t.attempts]),
    [
      ['1', 'passed', 1],
      ['2', 'passed', 2],
      ['3', 'passed', 1],
      ['4', 'passed', 0],
    ],
  );
  const failing = play(newState('M'), {
    tasks: twoTasks,
    verdicts: { 'review-1.md': ['FAIL', 'FAIL', 'FAIL'] },
    decisions: { 'phase-6-retry-limit': ['approve'] },
  });
  const tail = failing.trace.slice(failing.trace.indexOf('phase-4') + 1, failing.trace.indexOf('final-verification'));
  assert.deepEqual(tail, [
    'phase-5[1]',
    'phase-6[1]',
    'phase-5[1]',
    'phase-6[1]',
    'phase-5[1]',
    'phase-6[1]',
    'phase-6-retry-limit',
    'phase-5[2]',
    'phase-6[2]',
  ]);
  assert.equal(failing.state.tasks[0].status, 'accepted');
});

test('a human gate: skip skips the task, abandon ends the pipeline', () => {
  const tasks = '## Task 1: Merge the PR elsewhere\nmode: human\n\n## Task 2: B\n';
  assert.deepEqual(
    play(newState('M'), { tasks, decisions: { 'task-1': ['skip'] } }).state.tasks.map((t) => t.status),
    ['skipped', 'passed'],
  );
  const gone = play(newState('M'), { tasks, decisions: { 'task-1': ['reject'] } });
  assert.equal(gone.state.status, 'abandoned', '"reject" at a human gate means abandon');
  assert.deepEqual(
    gone.state.tasks.map((t) => t.status),
    ['failed', 'failed'],
    'open tasks of an abandoned pipeline failed',
  );
});

test('decisions are refused when nothing waits, for another checkpoint, or with an unknown option', () => {
  const s = newState('M');
  const decide = (option: string, expected?: string) => () =>
    applyDecision(s, defaultFlow, { option, comment: null, decidedBy: 't', via: 'test', now: 'now', expected });
  assert.throws(
    decide('approve'),
    (e: unknown) =>
      LedgerError.is(e, 'InvalidStatus') && /nothing in \.specs\/20260401-x waits for a decision/.test(e.message),
  );
  const waiting = play(newState('M'), {}, defaultFlow, 4).state; // phase-1..3b done: checkpoint-a is next
  assert.equal(nextStep(waiting, defaultFlow).type, 'checkpoint');
  assert.throws(
    () =>
      applyDecision(waiting, defaultFlow, { option: 'maybe', comment: null, decidedBy: 't', via: 'test', now: 'now' }),
    /answer one of "approve", "reject"/,
  );
  assert.throws(
    () =>
      applyDecision(waiting, defaultFlow, {
        option: 'approve',
        comment: null,
        decidedBy: 't',
        via: 'test',
        now: 'now',
        expected: 'checkpoint-b',
      }),
    /checkpoint-b is not waiting/,
  );
});

test('a flow override is checked when it loads', () => {
  const base =
    'version: 1\ntemplates:\n  light: { effort: S }\n  standard: { effort: M }\n  full: { effort: L }\nphases:\n';
  const bad = (phases: string, why: RegExp) =>
    assert.throws(
      () => parseFlow(base + phases, 'x.yaml'),
      (e: unknown) => LedgerError.is(e, 'ConfigError') && why.test(e.message),
    );
  bad('  - { id: a, label: A, kind: agent, agent: x, output: ../../etc/passwd }\n', /plain file name/);
  bad(
    '  - { id: a, label: A, kind: review, agent: x, output: r.md, revises: b }\n  - { id: b, label: B, kind: agent, agent: y, output: b.md }\n',
    /revises "b" must name an earlier phase/,
  );
  bad('  - { id: a, label: A, kind: agent, output: a.md }\n', /needs an "agent"/);
  bad('  - { id: a, label: A, kind: exec }\n', /needs a "command"/);
  assert.throws(() => parseFlow('phases: [', 'x.yaml'), /not valid YAML/);
  const custom = parseFlow(
    base +
      '  - { id: only, label: Only, kind: agent, agent: x, output: out.md }\n  - { id: sum, label: Summary, kind: summary, output: summary.md }\n',
    'x.yaml',
  );
  assert.deepEqual(play(newState('M', { flow: custom }), {}, custom).trace, ['only', 'sum', 'done']);
});
