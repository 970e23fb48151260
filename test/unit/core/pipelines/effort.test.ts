import { test } from 'node:test';
import assert from 'node:assert/strict';
import { branchName, detectEffort, requestBody } from '../../../../src/core/pipelines/engine/effort';

test('effort: the flag, then story points, then labels and issue type, then the words', () => {
  const e = (text: string, external = {}, override: 'S' | 'M' | 'L' | null = null) =>
    detectEffort({ flags: { effort_override: override }, external, text });
  assert.equal(e('Redesign everything', {}, 'S'), 'S');
  assert.equal(e('x', { jira_story_points: 2 }), 'S');
  assert.equal(e('x', { jira_story_points: 5 }), 'M');
  assert.equal(e('x', { jira_story_points: 8 }), 'L');
  assert.equal(e('x', { github_labels: ['bug', 'size:L'] }), 'L');
  assert.equal(e('x', { github_labels: ['documentation'] }), 'S');
  assert.equal(e('x', { jira_issue_type: 'Epic' }), 'L');
  assert.equal(e('Fix the typo in the README'), 'S');
  assert.equal(e('Migrate the storage layer to Postgres'), 'L');
  assert.equal(e('Add a retry option to the HTTP client'), 'M');
  assert.equal(e(`Fix the typo ${'word '.repeat(60)}`), 'M', 'a long request is not small, whatever its words');
});

test('branches and request bodies', () => {
  assert.equal(branchName('42-fix-auth-timeout', '42', { github_labels: ['bug'] }), 'fix/42-fix-auth-timeout');
  assert.equal(branchName('fix-auth-timeout', '42', {}), 'feature/42-fix-auth-timeout');
  assert.equal(branchName('login', null, {}), 'feature/login');
  assert.deepEqual(
    requestBody('github_issue', 'https://github.com/o/r/issues/1', {
      github_title: 'T',
      github_body: 'B',
      github_labels: ['bug'],
    }),
    { title: 'T', body: 'B\n\nLabels: bug' },
  );
  assert.deepEqual(requestBody('text', 'implement login feature', {}), {
    title: 'implement login feature',
    body: 'implement login feature',
  });
});
