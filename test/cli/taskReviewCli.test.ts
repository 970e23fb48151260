import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import { cli, cliError, cliJson } from '../helpers/cli';
import { tempRepo } from '../helpers/tmp';

test('agent-ledger task review: a person answers the review requests once; bad flags change nothing', async () => {
  const repo = tempRepo({ 'src/a.ts': 'a\n' });
  const c = await connect(repo);
  let taskId: string;
  let issueIds: number[];
  try {
    const wf = await c.call<{ workflow_id: string }>('start_workflow', {
      name: 'Reviewed work',
      plan: [{ step: '1', goal: 'Change a' }],
    });
    const t = await c.call<{ task_id: string }>('start_task', {
      workflow_id: wf.workflow_id,
      name: 'Change a',
      goal: 'Change a',
    });
    taskId = t.task_id;
    const first = await c.call<{ issue_id: number }>('log_issue', {
      task_id: taskId,
      type: 'other',
      description: 'Check the migration by hand',
      resolution: 'left as is',
      requires_human_review: true,
    });
    await c.call('log_issue', { task_id: taskId, type: 'other', description: 'Nothing to see', resolution: 'none' });
    issueIds = [first.issue_id];
  } finally {
    await c.close();
  }
  const run = (...args: string[]) => cli(['task', 'review', taskId, ...args, '--workspace', repo, '--json']);

  for (const flags of [[], ['--approve', '--dismiss']]) {
    const refused = run(...flags);
    assert.notEqual(refused.code, 0, `${flags.join(' ')} is refused`);
    assert.equal(cliError(refused).reason, 'ValidationError');
  }
  const missing = cli(['task', 'review', 'task-999', '--approve', '--workspace', repo, '--json']);
  assert.notEqual(missing.code, 0);
  assert.match(cliError(missing).message, /task-999/);

  const review = cliJson<{
    taskId: string;
    verdict: string;
    note: string | null;
    answered: { issues: number[]; completion: boolean };
  }>(['task', 'review', taskId, '--approve', '--note', 'migration checked', '--workspace', repo]);
  assert.equal(review.taskId, taskId);
  assert.equal(review.verdict, 'approved');
  assert.equal(review.note, 'migration checked');
  assert.deepEqual(review.answered.issues, issueIds, 'only the issue that asked for a person is answered');
  assert.equal(review.answered.completion, false);

  const again = run('--dismiss');
  assert.notEqual(again.code, 0, 'nothing is left to review');
  assert.equal(cliError(again).reason, 'InvalidStatus');
  assert.equal(cliError(again).data?.reason, 'nothingToReview');

  const text = cli(['task', 'review', taskId, '--approve', '--workspace', repo]);
  assert.notEqual(text.code, 0);
  assert.match(text.stderr, /no review request waiting for a person/);
});

test('agent-ledger task get: a completion a person reviewed no longer says "manual review needed"', async () => {
  const repo = tempRepo({ 'src/a.ts': 'a\n' });
  const c = await connect(repo);
  let taskId: string;
  try {
    const wf = await c.call<{ workflow_id: string }>('start_workflow', {
      name: 'Checked work',
      plan: [{ step: '1', goal: 'Change a' }],
    });
    const t = await c.call<{ task_id: string }>('start_task', {
      workflow_id: wf.workflow_id,
      name: 'Change a',
      goal: 'Change a',
    });
    taskId = t.task_id;
    await c.call('complete_task', {
      task_id: taskId,
      status: 'success',
      outcome: { summary: 'changed a', manual_review_needed: true, manual_review_reason: 'touches auth' },
    });
  } finally {
    await c.close();
  }
  const show = () => cli(['task', 'get', taskId, '--workspace', repo]);
  const before = show();
  assert.equal(before.code, 0, before.stderr);
  assert.match(before.stdout, /⚠ manual review needed: touches auth/);
  assert.equal(
    cliJson<{ completionReview: unknown }>(['task', 'get', taskId, '--workspace', repo]).completionReview,
    null,
  );

  cliJson(['task', 'review', taskId, '--approve', '--note', 'auth checked', '--workspace', repo]);
  const after = show();
  assert.equal(after.code, 0, after.stderr);
  assert.doesNotMatch(after.stdout, /manual review needed/, after.stdout);
  assert.match(after.stdout, /✓ review asked \(touches auth\): approved by \S+/);
  assert.match(after.stdout, /auth checked/);
  const json = cliJson<{
    completionReview: { verdict: string; note: string | null; reviewedBy: string; reviewedAt: string } | null;
  }>(['task', 'get', taskId, '--workspace', repo]);
  assert.equal(json.completionReview?.verdict, 'approved');
  assert.equal(json.completionReview?.note, 'auth checked');

  // The MCP answer is the same one read: task_get says it too.
  const c2 = await connect(repo);
  try {
    const got = await c2.call<{ completionReview: { verdict: string } | null }>('task_get', { id: taskId });
    assert.equal(got.completionReview?.verdict, 'approved');
  } finally {
    await c2.close();
  }
});
