/**
 * `agent-ledger plan …` from a terminal, on a workflow's plan in a real Git repository: a dry run
 * shows what `plan run` with the same flags launches (checked against what the real runner then
 * launches with the scripted clients), and a person steering a run from the terminal is recorded
 * as that person, where plan_status and the Plan graph say who paused or cancelled it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import { cli, cliError, cliJson } from '../helpers/cli';
import type { RunStatus } from '../mcp/planRunHelpers';
import { dependsOn, planTask, planWorld, startRunner, untilEnded, working } from '../mcp/planRunHelpers';
import type { PlanDryRunOutput, PlanRunOutput } from '../../src/core/runtime/planRuns/planRunContracts';
import { planRunView } from '../../src/views/planRunModel';

const user = os.userInfo().username;

test('plan dry-run --client/--model shows per task what plan run with the same flags launches; an unknown client is refused alike', async () => {
  const w = await planWorld(['coder', 'a2']);
  const t1 = await planTask(w, 'schema', ['packages/web/db']);
  const t2 = await planTask(w, 'api', ['packages/web/api']);
  await dependsOn(w, [[t1, t2]]);
  const ws = ['--workspace', w.repo];
  const runner = startRunner(w.repo, w.fakes.env({ steps: [], byAgent: { coder: working(100), a2: working(100) } }));
  try {
    // Without flags: each agent's own client and model.
    const own = cliJson<PlanDryRunOutput>(['plan', 'dry-run', w.workflowId, '--agent', 'coder', ...ws]);
    assert.deepEqual(own.problems, []);
    const ownClient = own.order.find((o) => o.task_id === t1)!.client;
    assert.ok(ownClient !== null && ownClient !== 'codex', `the coder's own client: ${JSON.stringify(own.order)}`);

    // An unknown client: the same coded error as plan run's, and nothing starts.
    const flags = ['--agent', 'coder', '--assign', `${t2}=a2`];
    const dryRefused = cli(['plan', 'dry-run', w.workflowId, ...flags, '--client', 'cursor', '--json', ...ws]);
    const runRefused = cli(['plan', 'run', w.workflowId, ...flags, '--client', 'cursor', '--json', ...ws]);
    assert.equal(dryRefused.code, runRefused.code, dryRefused.stderr);
    assert.equal(dryRefused.code, 2);
    const [dryError, runError] = [cliError(dryRefused), cliError(runRefused)];
    assert.deepEqual([dryError.code, dryError.reason], [runError.code, runError.reason]);
    assert.equal(dryError.reason, 'ValidationError');
    const unknown = /client: expected one of "claude" \| "codex" \| "gemini" \(got "cursor"\)/;
    assert.match(dryError.message, unknown);
    assert.match(runError.message, unknown);
    assert.deepEqual(cliJson<{ runs: RunStatus[] }>(['plan', 'status', ...ws]).runs, [], 'nothing started');

    // The flags name every task's client and model, in JSON and in the text a person reads.
    const run = [...flags, '--client', 'codex', '--model', 'gpt-5-codex'];
    const dry = cliJson<PlanDryRunOutput>(['plan', 'dry-run', w.workflowId, ...run, ...ws]);
    assert.deepEqual(
      dry.order.map((o) => [o.task_id, o.agent, o.client, o.model]),
      [
        [t1, 'coder', 'codex', 'gpt-5-codex'],
        [t2, 'a2', 'codex', 'gpt-5-codex'],
      ],
    );
    const text = cli(['plan', 'dry-run', w.workflowId, ...run, ...ws]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`wave 0 +${t1} +schema +coder +codex gpt-5-codex +packages/web/db`));
    assert.match(text.stdout, new RegExp(`wave 1 +${t2} +api +a2 +codex gpt-5-codex +packages/web/api`));

    // plan run with the same flags: the runner launches exactly that, task by task.
    const started = cliJson<PlanRunOutput>(['plan', 'run', w.workflowId, ...run, ...ws]);
    const ended = await untilEnded(w.orch, started.run_id);
    assert.equal(ended.status, 'succeeded', runner.summary());
    const launched = w.fakes.runs();
    assert.equal(launched.length, 2, runner.summary());
    for (const [i, o] of dry.order.entries()) {
      assert.equal(launched[i].client, o.client, `${o.task_id} launched with the client the dry run showed`);
      assert.ok(launched[i].argv.includes(`--model=${o.model}`), launched[i].argv.join(' '));
    }
    assert.deepEqual(
      ended.nodes.filter((n) => n.type === 'task').map((n) => [n.task_id, n.agent]),
      dry.order.map((o) => [o.task_id, o.agent]),
      'each task ran with the agent the dry run showed',
    );

    // Once done, the dry run says nothing would launch them again.
    const after = cliJson<PlanDryRunOutput>(['plan', 'dry-run', w.workflowId, ...run, ...ws]);
    assert.deepEqual(
      after.order.map((o) => [o.client, o.model]),
      [
        [null, null],
        [null, null],
      ],
    );
  } finally {
    await runner.stop();
    await w.orch.close();
  }
});

test('plan pause|resume|cancel from a terminal are recorded as the person (plan_status, the Plan graph); an MCP call keeps its caller', async () => {
  const w = await planWorld(['coder']);
  const t1 = await planTask(w, 'schema', ['packages/web/a']);
  const t2 = await planTask(w, 'api', ['packages/web/b']);
  await dependsOn(w, [[t1, t2]]);
  const ws = ['--workspace', w.repo];
  try {
    const started = cliJson<PlanRunOutput>(['plan', 'run', w.workflowId, '--agent', 'coder', ...ws]);
    const runId = started.run_id;
    const status = () => cliJson<{ runs: PlanRunOutput[] }>(['plan', 'status', runId, ...ws]).runs[0];

    // Pause from a terminal: the person, in the run's answer, in plan_status (read by an MCP
    // client too), in plan status's text and on the Plan graph.
    const paused = cliJson<PlanRunOutput>(['plan', 'pause', runId, ...ws]);
    assert.equal(paused.status, 'paused');
    assert.equal(paused.reason, `paused by person:${user}`);
    const seen = (await w.orch.call<{ runs: PlanRunOutput[] }>('plan_status', { run_id: runId })).runs[0];
    assert.equal(seen.reason, `paused by person:${user}`);
    const text = cli(['plan', 'status', runId, ...ws]);
    assert.match(
      text.stdout,
      new RegExp(`^${runId} paused — ${w.workflowId}, 0/2 done \\(paused by person:${user}\\)$`, 'm'),
    );
    assert.equal(planRunView(status()).reason, `paused by ${user}`, 'the Plan graph names the person');
    assert.equal(await taskStatus(w.orch, t1), 'open', 'the queued task was held back');

    // Resume from a terminal: the run goes on and no longer says it is paused.
    const resumed = cliJson<PlanRunOutput>(['plan', 'resume', runId, ...ws]);
    assert.equal(resumed.status, 'running');
    assert.equal(resumed.reason, null);
    assert.equal(await taskStatus(w.orch, t1), 'in_progress', 'queued again');

    // An MCP call keeps its caller: this client has no agent logged in, so it is its connection.
    const byMcp = await w.orch.call<PlanRunOutput>('plan_pause', { run_id: runId });
    assert.match(byMcp.reason ?? '', new RegExp(`^paused by connection:[^/]+/${user}/\\d+$`));
    cliJson(['plan', 'resume', runId, ...ws]);

    // Cancel from a terminal, with and without a reason: who, then why.
    const cancelled = cliJson<PlanRunOutput>(['plan', 'cancel', runId, '--reason', 'wrong approach', ...ws]);
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.reason, `cancelled by person:${user}: wrong approach`);
    assert.equal(cancelled.nodes.find((n) => n.task_id === t1)?.reason, `cancelled by person:${user}: wrong approach`);
    assert.equal(planRunView(status()).reason, `cancelled by ${user}: wrong approach`);
    assert.equal(await taskStatus(w.orch, t1), 'cancelled');
    // A refusal from the terminal is the tool's, coded, and changes nothing.
    const again = cli(['plan', 'cancel', runId, '--json', ...ws]);
    assert.equal(again.code, 6, again.stderr);
    assert.equal(cliError(again).reason, 'InvalidStatus');
    assert.equal(status().reason, `cancelled by person:${user}: wrong approach`);

    // Without a reason, the run says who; a second run of the plan, its tasks opened again.
    for (const t of [t1, t2])
      if ((await taskStatus(w.orch, t)) === 'cancelled')
        await w.orch.call('task_update', { id: Number(t.slice(5)), status: 'open' });
    const second = cliJson<PlanRunOutput>(['plan', 'run', w.workflowId, '--agent', 'coder', ...ws]);
    assert.equal(second.status, 'running');
    const plain = cliJson<PlanRunOutput>(['plan', 'cancel', second.run_id, ...ws]);
    assert.equal(plain.reason, `cancelled by person:${user}`);
  } finally {
    await w.orch.close();
  }
});

async function taskStatus(c: Awaited<ReturnType<typeof planWorld>>['orch'], key: string): Promise<string> {
  return (await c.call<{ status: string }>('task_get', { id: Number(key.slice(5)) })).status;
}
