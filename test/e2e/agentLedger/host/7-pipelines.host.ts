// Pipelines in the editor: an agent drives a pipeline through vscode.lm.invokeTool (Copilot's
// path) and stops at checkpoint A, which it cannot pass; the Pipelines view highlights it with a
// badge and a notification; the pipeline webview shows it; a person's decisions from the editor
// (stale refused, request changes, approve, a human gate skipped) move the engine, not the agent.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { api, folder, until } from './hostHelpers';
import {
  attempt,
  design,
  ensurePipelineTools,
  next,
  reviewWithNotes,
  runUntilWait,
  startPipeline,
} from './pipelineAgent';
import type { Action } from './pipelineAgent';

const title = 'Add retries to the HTTP client';
const tasksMd =
  '# Tasks\n\n## Task 1: Add the retry option\nmode: sequential\nfiles: src/retry.ts\n\nAdd it.\n\n## Task 2: Press the release button\nmode: human\n\nOnly a person can.\n';
const script = {
  'design.md': design,
  'review-design.md': reviewWithNotes,
  'tasks.md': (run: number) => `${tasksMd}\n<!-- run ${run} -->\n`,
};

const tree = async (): Promise<string> => (await (await api()).testing.pipelinesView()).join('\n');
const state = (ws: string): { current_phase: string; status: string } =>
  JSON.parse(readFileSync(path.join(folder(), ws, 'state.json'), 'utf8'));

describe('pipelines in the editor', () => {
  let ws = '';
  let checkpoint: Action;

  it('an agent’s pipeline stops at checkpoint A, which it cannot pass; the view highlights it, with a badge and a notification', async function () {
    this.timeout(150_000);
    await ensurePipelineTools();
    ws = await startPipeline(title, 'M');
    checkpoint = await runUntilWait(ws, await next(ws), script);
    assert.equal(checkpoint.type, 'checkpoint');
    assert.equal(checkpoint.name, 'checkpoint-a');
    // Asking again gives the same checkpoint; answering for the person is refused.
    assert.equal((await next(ws)).name, 'checkpoint-a');
    const refused = await attempt('pipeline_next_action', { workspace: ws, user_response: 'approve' });
    assert.equal(refused.error?.reason, 'InvalidStatus');
    assert.equal(refused.error?.data?.reason, 'human_decision_required');
    assert.equal(state(ws).current_phase, 'checkpoint-a');

    await until(
      'the waiting checkpoint in the Pipelines view',
      async () => (await tree()).includes('Human Reviews Design — waits for your decision'),
      5_000,
    );
    const text = await tree();
    assert.match(text, new RegExp(`^${title} — waits for you: Checkpoint A · M · [\\d.]+k tokens · \\d+s$`, 'm'));
    assert.match(text, /^ {2}Situation Analysis — \d+s · [\d.]+k tokens · sonnet$/m);
    assert.match(text, /^ {2}Design Review — \d+s · [\d.]+k tokens · sonnet · APPROVE_WITH_NOTES · 2 findings$/m);
    assert.match(text, /^ {2}Task Decomposition$/m);
    await until('the badge to count it', async () => (await api()).testing.pipelinesBadge() === 1, 5_000);
    const expected = `Pipeline "${title}" waits for your decision at Checkpoint A: Human Reviews Design`;
    await until(
      'the notification',
      async () => (await api()).testing.pipelineNotifications().includes(expected),
      5_000,
    );
  });

  it('opens the pipeline webview: timeline, findings with severities, metrics and the waiting checkpoint', async () => {
    const target = await vscode.commands.executeCommand<{ folder: string; workspace: string }>(
      'agentLedger.openPipeline',
      { folder: folder(), workspace: ws },
    );
    assert.deepEqual(target, { folder: folder(), workspace: ws });
    const { value: model } = await until(
      'the pipeline model',
      async () => (await api()).testing.pipeline(folder(), ws),
      15_000,
    );
    assert.equal(model.title, title);
    assert.equal(model.waiting?.name, 'checkpoint-a');
    assert.equal(model.waiting?.rejectTo, 'Design');
    assert.deepEqual(
      model.waiting?.present.map((a) => a.name),
      ['design.md', 'review-design.md'],
    );
    assert.deepEqual(
      model.phases.filter((p) => p.status === 'completed').map((p) => p.id),
      ['phase-1', 'phase-2', 'phase-3', 'phase-3b'],
    );
    assert.deepEqual(model.phases.find((p) => p.id === 'phase-3b')?.findings, [
      { severity: 'MAJOR', description: 'Say which status codes are retried' },
      { severity: 'MINOR', description: 'Name the config option' },
    ]);
    assert.equal(
      model.totals.tokens,
      model.phases.reduce((n, p) => n + p.tokens, 0),
    );
    assert.ok(model.totals.tokens > 0 && model.totals.durationMs > 0);
    assert.ok(model.artifacts.some((a) => a.name === 'design.md'));
  });

  it('refuses a stale decision; Request changes sends the pipeline back to Design with the comment', async () => {
    // A button showing checkpoint B while A waits must not decide A.
    assert.equal(
      await vscode.commands.executeCommand('agentLedger.approvePipelineCheckpoint', {
        folder: folder(),
        workspace: ws,
        checkpoint: 'checkpoint-b',
      }),
      undefined,
    );
    assert.equal(state(ws).current_phase, 'checkpoint-a');
    const comment = 'Bound the retries at 3 and say so in the design';
    const result = await vscode.commands.executeCommand<{ decision: string; currentPhase: string }>(
      'agentLedger.rejectPipelineCheckpoint',
      { folder: folder(), workspace: ws, checkpoint: 'checkpoint-a', comment },
    );
    assert.deepEqual(result, {
      checkpoint: 'checkpoint-a',
      decision: 'reject',
      status: 'running',
      currentPhase: 'phase-3',
    });
    const action = await next(ws);
    assert.equal(action.type, 'spawn_agent');
    assert.equal(action.phase, 'phase-3');
    assert.ok(String(action.prompt).includes(comment), 'the agent reads the person’s comment');
    await until(
      'Design running again, revision 1',
      async () => /^ {2}Design — running · .*revision 1$/m.test(await tree()),
      5_000,
    );
    const { value: model } = await until(
      'the decision in the webview',
      async () => (await api()).testing.pipeline(folder(), ws)?.decisions[0],
      5_000,
    );
    assert.deepEqual(
      { ...model, at: undefined },
      {
        name: 'checkpoint-a',
        label: 'Checkpoint A: Human Reviews Design',
        kind: 'checkpoint',
        decision: 'reject',
        comment,
        by: os.userInfo().username,
        via: 'editor',
        at: undefined,
      },
    );
    await until('the badge to clear', async () => (await api()).testing.pipelinesBadge() === 0, 5_000);
    checkpoint = await runUntilWait(ws, action, script);
    assert.equal(checkpoint.name, 'checkpoint-a');
  });

  it('approving from the editor moves the agent on; a human gate waits on its task and is skipped from the editor', async function () {
    this.timeout(60_000);
    // The same checkpoint reached again is a new wait, announced again.
    await until(
      'a second notification',
      async () => (await api()).testing.pipelineNotifications().filter((n) => n.includes('Checkpoint A')).length === 2,
      5_000,
    );
    const approved = await vscode.commands.executeCommand<{ currentPhase: string }>(
      'agentLedger.approvePipelineCheckpoint',
      { folder: folder(), workspace: ws, checkpoint: 'checkpoint-a' },
    );
    assert.equal(approved.currentPhase, 'phase-4');
    const decomposition = await next(ws);
    assert.equal(decomposition.phase, 'phase-4');
    assert.equal(decomposition.display_message, 'Phase 4: Task Decomposition');
    await until(
      'Task Decomposition running',
      async () => /^ {2}Task Decomposition — running$/m.test(await tree()),
      5_000,
    );
    assert.match(await tree(), /^ {2}Human Reviews Design — approved by .+$/m);

    const gate = await runUntilWait(ws, decomposition, script);
    assert.equal(gate.type, 'human_gate');
    assert.equal(gate.name, 'task-2');
    await until(
      'the human task highlighted',
      async () => /^ {4}Task 2: Press the release button — waits for you \(human task\)$/m.test(await tree()),
      5_000,
    );
    assert.match(await tree(), /^ {2}Implementation — waits for you \(human task\)/m);
    assert.match(await tree(), /^ {4}Task 1: Add the retry option — passed · PASS · task-\d+/m);
    const { value: waiting } = await until(
      'the gate in the webview',
      async () => (await api()).testing.pipeline(folder(), ws)?.waiting ?? undefined,
      5_000,
    );
    assert.deepEqual([waiting.kind, waiting.options], ['human_gate', ['done', 'skip', 'abandon']]);
    const skipped = await vscode.commands.executeCommand<{ decision: string; status: string }>(
      'agentLedger.decidePipelineCheckpoint',
      { folder: folder(), workspace: ws, checkpoint: 'task-2', decision: 'skip', comment: 'Released by hand already' },
    );
    assert.deepEqual([skipped.decision, skipped.status], ['skip', 'running']);
    const after = await next(ws);
    assert.notEqual(after.type, 'human_gate');
    await until(
      'the skipped task',
      async () => /^ {4}Task 2: Press the release button — skipped$/m.test(await tree()),
      5_000,
    );
  });
});
