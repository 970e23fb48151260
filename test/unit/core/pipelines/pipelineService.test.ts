import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createServices } from '../../../../src/app/services';
import type { PipelineChange } from '../../../../src/core/pipelines/pipelineService';
import { LedgerError } from '../../../../src/core/errors';
import { tempRepo } from '../../../helpers/tmp';

/** Resolves once `done()` holds (change events are read asynchronously), or after `ms`. */
async function until(done: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
}

/** The API the editor's Pipelines view calls: list, detail, decide, and live changes from any process. */
test('a view lists a waiting pipeline, shows its phases, and sees a decision made by another process', async () => {
  const repo = tempRepo();
  const agent = await createServices({ workspace: repo });
  const editor = await createServices({ workspace: repo });
  try {
    const p = agent.pipelines;
    const init = p.init({ arguments: 'Fix the typo in the README', current_branch: 'main' });
    const ready = await p.initWithContext({
      workspace: String(init.workspace),
      flags: init.flags as never,
      task_text: String(init.core_text),
      user_confirmation: { effort: 'S', use_current_branch: true },
    });
    const ws = String(ready.workspace);
    for (const file of ['analysis.md', 'design.md']) {
      await p.nextAction({ workspace: ws });
      fs.writeFileSync(path.join(repo, ws, file), `# ${file}\n`);
      await p.nextAction({
        workspace: ws,
        previous_action_complete: true,
        previous_tokens: 500,
        previous_duration_ms: 1500,
        previous_model: 'sonnet',
      });
    }
    assert.equal((await p.nextAction({ workspace: ws })).type, 'checkpoint');

    const changes: PipelineChange[] = [];
    const sub = editor.pipelines.onDidChange((e) => changes.push(e));
    const { pipelines } = await editor.pipelines.list();
    assert.equal(pipelines.length, 1);
    assert.equal(pipelines[0].status, 'awaiting_human');
    assert.equal(pipelines[0].waiting?.name, 'checkpoint-a');
    assert.equal(pipelines[0].totalTokens, 1000);
    const detail = await editor.pipelines.detail(ws);
    assert.deepEqual(
      detail.phases.map((ph) => [ph.id, ph.status]),
      [
        ['phase-1', 'completed'],
        ['phase-2', 'skipped'],
        ['phase-3', 'completed'],
        ['phase-3b', 'skipped'],
        ['checkpoint-a', 'in_progress'],
        ['phase-4', 'pending'],
        ['phase-4b', 'pending'],
        ['checkpoint-b', 'pending'],
        ['phase-5', 'pending'],
        ['phase-6', 'pending'],
        ['final-verification', 'pending'],
        ['pr-creation', 'pending'],
        ['improvement', 'pending'],
        ['final-summary', 'pending'],
      ],
    );
    const phase1 = detail.phases[0];
    assert.deepEqual([phase1.tokens, phase1.durationMs, phase1.model, phase1.runs], [500, 1500, 'sonnet', 1]);
    assert.deepEqual(phase1.artifact, { name: 'analysis.md', path: path.join(repo, ws, 'analysis.md'), exists: true });
    assert.equal(detail.waiting?.name, 'checkpoint-a');
    assert.deepEqual(detail.waiting?.options, ['approve', 'reject']);
    assert.deepEqual(
      detail.artifacts.map((a) => a.name),
      ['analysis.md', 'design.md', 'request.md'],
    );

    await assert.rejects(
      editor.pipelines.decide(ws, { decision: 'approve', by: 'carol', via: 'editor', checkpoint: 'checkpoint-b' }),
      (e: unknown) => LedgerError.is(e, 'InvalidStatus'),
    );
    const decided = await editor.pipelines.decide(ws, {
      decision: 'reject',
      comment: 'Keep the old wording in the FAQ',
      by: 'carol',
      via: 'editor',
      checkpoint: 'checkpoint-a',
    });
    assert.equal(decided.pipeline.currentPhase, 'phase-3');
    assert.deepEqual(decided.decision, {
      ...decided.decision,
      name: 'checkpoint-a',
      decision: 'reject',
      decided_by: 'carol',
      via: 'editor',
      comment: 'Keep the old wording in the FAQ',
    });

    await until(() => changes.some((c) => c.workspaces.includes(ws) && c.kinds.includes('pipeline.decided')));
    assert.ok(
      changes.some((c) => c.workspaces.includes(ws) && c.kinds.includes('pipeline.decided')),
      JSON.stringify(changes),
    );

    // The agent's process learns it on its next call, and the view hears of that call's write.
    await until(() => false, 300); // the decision's own events are all delivered first
    changes.length = 0;
    const next = await p.nextAction({ workspace: ws });
    assert.equal(next.type === 'spawn_agent' && next.phase, 'phase-3');
    assert.ok(next.type === 'spawn_agent' && next.prompt.includes('> Keep the old wording in the FAQ — carol'));
    // The editor's engine watches the journal (inotify, a 1 s poll behind it): the write arrives by itself.
    await until(() => changes.length > 0);
    assert.deepEqual(changes, [{ workspaces: [ws], kinds: ['pipeline.updated'] }]);
    sub.dispose();
  } finally {
    await agent.dispose();
    await editor.dispose();
  }
});
