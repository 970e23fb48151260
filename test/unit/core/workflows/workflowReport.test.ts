import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServices } from '../../../../src/app/services';
import type { Services } from '../../../../src/app/services';
import { tempRepo, writeFiles } from '../../../helpers/tmp';

async function startedTask(
  files: Record<string, string>,
): Promise<{ services: Services; repo: string; taskId: string; workflowId: string }> {
  const repo = tempRepo(files);
  const services = await createServices({ workspace: repo });
  const { workflow_id } = await services.workflows.start({
    name: 'Login',
    plan: [{ step: 'form', goal: 'a login form' }],
  });
  const { task_id } = await services.tracking.startTask({
    workflow_id,
    name: 'Add the form',
    goal: 'A login form',
    areas: ['src'],
  });
  return { services, repo, taskId: task_id, workflowId: workflow_id };
}

test('the workflow report holds outcomes, decisions, issues and files changed', async () => {
  const { services, repo, taskId, workflowId } = await startedTask({ 'src/a.ts': 'a1\n' });
  try {
    await services.tracking.logDecision({
      task_id: taskId,
      category: 'library_choice',
      question: 'Which form library?',
      options_considered: ['none', 'formik'],
      chosen: 'none',
      reasoning: 'Two fields only',
      trade_offs: 'More code',
    });
    await services.tracking.logIssue({
      task_id: taskId,
      type: 'unclear_requirement',
      description: 'Remember me?',
      resolution: 'Left out',
      requires_human_review: true,
    });
    writeFiles(repo, { 'src/a.ts': 'a2\n', 'docs/login.md': 'x\n' });
    await services.tracking.completeTask({
      task_id: taskId,
      status: 'partial_success',
      outcome: {
        summary: 'Form added.',
        limitations: ['No remember-me'],
        manual_review_needed: true,
        manual_review_reason: 'UX',
      },
    });
    const text = await services.workflowReport(workflowId, new Date('2026-01-02T03:04:05Z'));
    for (const expected of [
      '# Login',
      '1. **form** — a login form',
      '### ⚠️ Add the form (`task-1`, partial_success',
      '**Outcome:** Form added.',
      '- No remember-me',
      '> ⚠️ **Manual review needed**: UX',
      '- added: `docs/login.md`',
      '- modified: `src/a.ts`',
      'outside declared scope',
      '_library choice_ — Which form library? → **none**. Two fields only (options: none / formik; trade-offs: More code)',
      '🔎 **needs human review** — _unclear requirement_: Remember me? — Left out',
    ]) {
      assert.ok(text.includes(expected), `report lacks ${JSON.stringify(expected)}:\n${text}`);
    }
  } finally {
    await services.dispose();
  }
});
