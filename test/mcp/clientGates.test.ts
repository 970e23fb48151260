import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connect } from '../helpers/mcpClient';
import { cli } from '../helpers/cli';
import {
  makeToken,
  modernRequest,
  startHttpServer,
  structured,
  v1HttpClient,
  v2HttpClient,
} from '../helpers/httpServer';
import type { Action } from './pipelineDriver';
import { decisions, pipelineAtCheckpoint } from './gateHelpers';
import { readLedger } from '../helpers/ledgerRows';

const elicitation = { elicitation: { form: {} } };

test('a checkpoint asked in the client (2026-07-28 over HTTP) passes as the person who answered', async () => {
  const { repo, workspace, checkpoint, agent } = await pipelineAtCheckpoint();
  const server = await startHttpServer(repo);
  const alice = makeToken(repo, 'person', ['--name', 'alice']);
  const coder = makeToken(repo, 'agent', ['--agent', 'coder']);
  const asked: string[] = [];
  const person = await v2HttpClient(server.url, alice, 'modern', elicitation);
  person.setRequestHandler('elicitation/create', async (request) => {
    asked.push(String(request.params.message));
    const schema = (request.params as { requestedSchema: any }).requestedSchema;
    assert.deepEqual(
      schema.properties.decision.oneOf.map((o: { const: string }) => o.const),
      ['approve', 'reject'],
    );
    return { action: 'accept', content: { decision: 'approve', comment: 'ship it' } };
  });
  const bot = await v2HttpClient(server.url, coder, 'modern', elicitation);
  bot.setRequestHandler('elicitation/create', async () => {
    asked.push('agent token asked');
    return { action: 'accept', content: { decision: 'approve' } };
  });
  try {
    // Off by default: the checkpoint comes back as it always did, nobody is asked.
    const off = structured<Action>(await person.callTool({ name: 'pipeline_next_action', arguments: { workspace } }));
    assert.equal(off.type, 'checkpoint');
    assert.deepEqual(asked, []);

    assert.equal(cli(['pipeline', 'client-gates', 'on', '--workspace', repo]).code, 0);
    // An agent's token is never asked, whatever its client declares.
    const forAgent = structured<Action>(await bot.callTool({ name: 'pipeline_next_action', arguments: { workspace } }));
    assert.equal(forAgent.type, 'checkpoint');
    assert.deepEqual(asked, []);

    const next = structured<Action>(await person.callTool({ name: 'pipeline_next_action', arguments: { workspace } }));
    assert.equal(asked.length, 1, 'the person was asked once');
    assert.match(asked[0], new RegExp(`Checkpoint`));
    assert.notEqual(next.type, 'checkpoint', `the pipeline moved on: ${next.type}`);
    const d = decisions(repo, workspace).find((x) => x.name === checkpoint)!;
    assert.deepEqual([d.decision, d.comment, d.decided_by], ['approve', 'ship it', 'alice']);
    assert.match(d.via, /^client \(token-\d+\)$/);
  } finally {
    await person.close();
    await bot.close();
    await agent.close();
    await server.stop();
  }
});

test('a cancel (claude -p answers every question so) is no decision, and the checkpoint is not asked again', async () => {
  const { repo, workspace, agent } = await pipelineAtCheckpoint();
  assert.equal(cli(['pipeline', 'client-gates', 'on', '--workspace', repo]).code, 0);
  const server = await startHttpServer(repo);
  const token = makeToken(repo, 'person', ['--name', 'gus']);
  let asked = 0;
  const client = await v2HttpClient(server.url, token, 'modern', elicitation);
  client.setRequestHandler('elicitation/create', async () => {
    asked += 1;
    return { action: 'cancel' };
  });
  try {
    for (let i = 0; i < 3; i++) {
      const a = structured<Action>(await client.callTool({ name: 'pipeline_next_action', arguments: { workspace } }));
      assert.equal(a.type, 'checkpoint', 'no decision');
    }
    assert.equal(asked, 1, 'asked once, never again');
    assert.deepEqual(decisions(repo, workspace), []);
  } finally {
    await client.close();
    await agent.close();
    await server.stop();
  }
});

test('a decline is a ledger fact: another server of the ledger, and this one restarted, do not ask again; another person is asked', async () => {
  const { repo, workspace, checkpoint, agent } = await pipelineAtCheckpoint();
  assert.equal(cli(['pipeline', 'client-gates', 'on', '--workspace', repo]).code, 0);
  const b = await startHttpServer(repo);
  let a = await startHttpServer(repo);
  const gus = makeToken(repo, 'person', ['--name', 'gus']);
  const kim = makeToken(repo, 'person', ['--name', 'kim']);
  const asked: string[] = [];
  const as = async (url: string, token: string, who: string, answer: Record<string, unknown>) => {
    const client = await v2HttpClient(url, token, 'modern', elicitation);
    client.setRequestHandler('elicitation/create', async () => (asked.push(who), answer as never));
    return client;
  };
  const next = async (client: Awaited<ReturnType<typeof as>>) =>
    structured<Action>(await client.callTool({ name: 'pipeline_next_action', arguments: { workspace } }));
  const clients: Array<Awaited<ReturnType<typeof as>>> = [];
  try {
    clients.push(await as(a.url, gus, 'gus on A', { action: 'decline' }));
    assert.equal((await next(clients[0])).type, 'checkpoint');
    assert.deepEqual(asked, ['gus on A']);

    // The same person in the same client, through the other replica: not asked again.
    clients.push(await as(b.url, gus, 'gus on B', { action: 'decline' }));
    assert.equal((await next(clients[1])).type, 'checkpoint');
    // And through the first server after a restart (nothing of it kept in a process).
    await a.stop();
    a = await startHttpServer(repo);
    clients.push(await as(a.url, gus, 'gus on A again', { action: 'decline' }));
    assert.equal((await next(clients[2])).type, 'checkpoint');
    assert.deepEqual(asked, ['gus on A'], 'declined once, asked nowhere again');

    const facts = await readLedger(repo, (db) =>
      db.all<{ payload: string; token_id: number | null }>(
        "SELECT payload, token_id FROM events WHERE kind = 'pipeline.checkpoint_declined_in_client'",
      ),
    );
    assert.equal(facts.length, 1);
    assert.deepEqual((({ checkpoint: c, action, by }) => ({ c, action, by }))(JSON.parse(facts[0].payload)), {
      c: checkpoint,
      action: 'decline',
      by: 'gus',
    });
    assert.notEqual(facts[0].token_id, null, 'the fact records the token that declined');

    // Another person is still asked, and decides.
    clients.push(await as(b.url, kim, 'kim on B', { action: 'accept', content: { decision: 'approve' } }));
    assert.notEqual((await next(clients[3])).type, 'checkpoint');
    assert.deepEqual(asked, ['gus on A', 'kim on B']);
    assert.deepEqual(
      decisions(repo, workspace).map((d) => [d.name, d.decision, d.decided_by]),
      [[checkpoint, 'approve', 'kim']],
    );
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await agent.close();
    await Promise.all([a.stop(), b.stop()]);
  }
});

test('2025-11-25 clients are asked with elicitation/create: on stdio, and over HTTP with --stateful only', async () => {
  const { repo, workspace, checkpoint, agent } = await pipelineAtCheckpoint();
  assert.equal(cli(['pipeline', 'client-gates', 'on', '--workspace', repo]).code, 0);
  const stateless = await startHttpServer(repo);
  const stateful = await startHttpServer(repo, ['--stateful']);
  const token = makeToken(repo, 'person', ['--name', 'hana']);
  const stdio = await connect(repo, [], { capabilities: elicitation });
  const plain = await v1HttpClient(stateless.url, token);
  const session = await v1HttpClient(stateful.url, token, elicitation);
  const asked: string[] = [];
  try {
    // A stateless 2025 request declares nothing (no initialize behind it): not asked, as before.
    const withoutSession = structured<Action>(
      await plain.callTool({ name: 'pipeline_next_action', arguments: { workspace } }),
    );
    assert.equal(withoutSession.type, 'checkpoint');

    // The stdio client declines: no decision.
    stdio.client.setRequestHandler(ElicitRequestSchema, async () => {
      asked.push('stdio');
      return { action: 'decline' };
    });
    assert.equal((await stdio.call<Action>('pipeline_next_action', { workspace })).type, 'checkpoint');

    session.setRequestHandler(ElicitRequestSchema, async () => {
      asked.push('http session');
      return { action: 'accept', content: { decision: 'reject', comment: 'split the change' } };
    });
    const after = structured<Action>(
      await session.callTool({ name: 'pipeline_next_action', arguments: { workspace } }),
    );
    assert.notEqual(after.type, 'checkpoint');
    assert.deepEqual(asked, ['stdio', 'http session']);
    const d = decisions(repo, workspace).find((x) => x.name === checkpoint)!;
    assert.deepEqual([d.decision, d.comment, d.decided_by], ['reject', 'split the change', 'hana']);
  } finally {
    await Promise.all([plain.close(), session.close(), stdio.close(), agent.close()]);
    await Promise.all([stateless.stop(), stateful.stop()]);
  }
});

test('an answer with a tampered requestState is refused and decides nothing', async () => {
  const { repo, workspace, agent } = await pipelineAtCheckpoint();
  assert.equal(cli(['pipeline', 'client-gates', 'on', '--workspace', repo]).code, 0);
  const server = await startHttpServer(repo);
  const token = makeToken(repo, 'person', ['--name', 'ines']);
  const other = makeToken(repo, 'person', ['--name', 'jo']);
  /** A raw 2026-07-28 call of pipeline_next_action by `bearer`, with the answer's fields in `extra`. */
  const post = async (id: number, bearer: string, extra: Record<string, unknown> = {}) => {
    const { body, headers } = modernRequest(
      'tools/call',
      { name: 'pipeline_next_action', arguments: { workspace }, ...extra },
      { id, token: bearer, capabilities: elicitation },
    );
    return (await (await fetch(server.url, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as any;
  };
  try {
    const question = await post(1, token);
    assert.equal(question.result.resultType, 'input_required');
    const state = question.result.requestState as string;
    const answer = { checkpoint: { action: 'accept', content: { decision: 'approve' } } };
    const tampered = `${state.slice(0, -4)}AAAA`;
    const refused = await post(2, token, { inputResponses: answer, requestState: tampered });
    assert.equal(refused.error.code, -32602);
    assert.deepEqual(decisions(repo, workspace), []);
    // Another person's token cannot replay it either (the state is bound to the caller).
    const replay = await post(3, other, { inputResponses: answer, requestState: state });
    assert.equal(replay.error.code, -32602);
    assert.deepEqual(decisions(repo, workspace), []);
    const accepted = await post(4, token, { inputResponses: answer, requestState: state });
    assert.equal(accepted.result.resultType, 'complete');
    assert.equal(decisions(repo, workspace)[0].decided_by, 'ines');
  } finally {
    await agent.close();
    await server.stop();
  }
});
