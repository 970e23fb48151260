import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTasks } from '../../../../src/core/pipelines/engine/tasksParser';

test('tasks.md: headings, modes, scopes and bodies', () => {
  const text = [
    '# Tasks',
    '',
    '## Task 1: Add the **retry** option',
    'mode: sequential',
    'files: src/http/client.ts, test/http/client.test.ts',
    '',
    'Add `maxRetries`.',
    '',
    '### Task 2 - Document it',
    '**mode:** `parallel`',
    '',
    '## Task 3. Merge the schema PR',
    'mode: human',
    '',
    '## 4) Clean up',
    'mode: whatever',
  ].join('\n');
  const { tasks, problems } = parseTasks(text);
  assert.deepEqual(problems, []);
  assert.deepEqual(
    tasks.map((t) => [t.id, t.title, t.mode, t.files, t.body]),
    [
      [
        '1',
        'Add the retry option',
        'sequential',
        ['src/http/client.ts', 'test/http/client.test.ts'],
        'Add `maxRetries`.',
      ],
      ['2', 'Document it', 'parallel', [], ''],
      ['3', 'Merge the schema PR', 'human', [], ''],
      ['4', 'Clean up', 'sequential', [], ''],
    ],
  );
});

test('an unusable task list says why', () => {
  assert.deepEqual(parseTasks('# Tasks\n\nDo everything.\n').problems, [
    'no tasks found: write each task as a heading "## Task 1: Title"',
  ]);
  assert.deepEqual(parseTasks('## Task 1: A\n## Task 01: B\n').problems, ['task 1 appears twice']);
});
