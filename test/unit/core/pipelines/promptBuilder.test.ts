import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPrompt } from '../../../../src/core/pipelines/prompt/promptBuilder';
import type { Step } from '../../../../src/core/pipelines/engine/nextStep';

const step: Extract<Step, { type: 'spawn_agent' }> = {
  type: 'spawn_agent',
  phase: 'phase-3',
  label: 'Design',
  agent: 'architect',
  model: 'opus',
  inputs: ['request.md', 'analysis.md'],
  output: 'design.md',
  taskIds: [],
  revision: null,
};

test('layers 1 and 2 always; layers 3 and 4 only when there is data', () => {
  const bare = buildPrompt({
    instructions: '# Architect\n\nDesign it.\n',
    workspace: '.specs/x',
    step,
    tasks: [],
    profile: null,
    flywheel: null,
  });
  assert.equal(
    bare,
    '# Architect\n\nDesign it.\n\n## Input Files\n- .specs/x/request.md\n- .specs/x/analysis.md\n## Output File\n- .specs/x/design.md\n',
  );
  const empty = buildPrompt({
    instructions: 'I',
    workspace: '.specs/x',
    step,
    tasks: [],
    profile: { languages: [], build: null, test: null },
    flywheel: { similar: [], patterns: [], friction: [] },
  });
  assert.equal(empty, bare.replace('# Architect\n\nDesign it.', 'I'), 'an empty profile or flywheel adds nothing');
  const full = buildPrompt({
    instructions: 'I',
    workspace: '.specs/x',
    step,
    tasks: [],
    profile: {
      languages: [
        { name: 'Go', percent: 82 },
        { name: 'TypeScript', percent: 15 },
      ],
      build: 'make build',
      test: 'go test ./...',
    },
    flywheel: {
      similar: [
        {
          workspace: '.specs/20260301-fix-auth',
          title: 'Fix auth',
          effort: 'M',
          status: 'completed',
          revisions: 2,
          score: 3.2,
        },
      ],
      patterns: [{ severity: 'MAJOR', description: 'Missing timeout', count: 3, sources: [] }],
      friction: [{ severity: 'INFO', description: 'Tests are slow', count: 1, sources: [] }],
    },
  });
  assert.ok(
    full.includes(
      '## Repository Context\nLanguages: Go (82%), TypeScript (15%)\nBuild command: make build\nTest command: go test ./...',
    ),
  );
  assert.ok(
    full.includes(
      '## Similar Past Pipelines\n- .specs/20260301-fix-auth: Fix auth (effort M, completed, 2 revision(s))',
    ),
  );
  assert.ok(full.includes('## Past Review Patterns\n- [MAJOR] Missing timeout (seen 3×)'));
  assert.ok(full.includes('## AI Friction Points\n- Tests are slow\n'));
});

test('layer 4 stays under its budget, dropping whole lines', () => {
  const patterns = Array.from({ length: 50 }, (_, i) => ({
    severity: 'MINOR' as const,
    description: `Finding number ${i} ${'x'.repeat(80)}`,
    count: 1,
    sources: [],
  }));
  const prompt = buildPrompt({
    instructions: 'I',
    workspace: '.specs/x',
    step,
    tasks: [],
    profile: null,
    flywheel: { similar: [], patterns, friction: [] },
    budget: { profile: 800, flywheel: 300, items: 50 },
  });
  const layer4 = prompt.slice(prompt.indexOf('## Past Review Patterns'));
  assert.ok(layer4.length <= 301, `layer 4 is ${layer4.length} characters`);
  assert.ok(
    layer4
      .trimEnd()
      .split('\n')
      .slice(1)
      .every((l) => /^- \[MINOR\] Finding number \d+ x+$/.test(l)),
    'only whole lines',
  );
});

test('tasks, parallel ids and revisions in layer 2', () => {
  const prompt = buildPrompt({
    instructions: 'I',
    workspace: '.specs/x',
    step: {
      ...step,
      phase: 'phase-5',
      output: 'impl-{task_id}.md',
      taskIds: ['1', '2'],
      revision: { by: 'checkpoint-a', round: 1, comments: ['Use backoff — bob, 2026-04-01'] },
    },
    tasks: [
      { id: '1', title: 'A', files: ['src/a.ts'] },
      { id: '2', title: 'B', files: [] },
    ],
    profile: null,
    flywheel: null,
  });
  assert.ok(prompt.includes('one per task id (1, 2). Do only the task you were started for, and replace {task_id}'));
  assert.ok(prompt.includes('## Tasks\n- Task 1: A (scope: src/a.ts)\n- Task 2: B\n'));
  assert.ok(
    prompt.includes(
      '## Revision 1\nThis phase was sent back by checkpoint-a. Address every finding in the review input above and the human feedback below.\n> Use backoff — bob, 2026-04-01',
    ),
  );
});
