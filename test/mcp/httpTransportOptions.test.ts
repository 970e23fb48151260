/**
 * What `mcp serve --http` offers besides its defaults: event-stream answers (`--sse`), HTTPS of
 * its own (`--tls-cert/--tls-key`), the bound on one client's requests in flight, and several
 * servers on one ledger (replicas behind one URL).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as path from 'node:path';
import { tempDir, tempRepo } from '../helpers/tmp';
import { makeToken, modernToolCall, startHttpServer } from '../helpers/httpServer';

function call(name: string, args: Record<string, unknown>, token: string, id = 1): RequestInit {
  return modernToolCall(name, args, { token, id, client: 'options-test' });
}

/** The JSON-RPC answer of an event stream: the `data:` of its message event. */
function fromStream(text: string): { result: { structuredContent: Record<string, unknown>; isError?: boolean } } {
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .find((line) => line.startsWith('{'));
  assert.ok(data, `an event with the answer in:\n${text}`);
  return JSON.parse(data);
}

test('--sse answers every call with an event stream; without it, JSON', async () => {
  const repo = tempRepo();
  const json = await startHttpServer(repo);
  const sse = await startHttpServer(repo, ['--sse']);
  const token = makeToken(repo, 'person', ['--name', 'sam']);
  try {
    const plain = await fetch(json.url, call('task_create', { title: 'answered as JSON' }, token));
    assert.match(plain.headers.get('content-type') ?? '', /^application\/json/);
    const answer = (await plain.json()) as { result: { structuredContent: { id: string } } };
    assert.ok(answer.result.structuredContent.id);

    const streamed = await fetch(sse.url, call('task_create', { title: 'answered as a stream' }, token));
    assert.equal(streamed.status, 200);
    assert.match(streamed.headers.get('content-type') ?? '', /^text\/event-stream/);
    const event = fromStream(await streamed.text());
    assert.equal(event.result.isError, undefined);
    assert.ok(event.result.structuredContent.id);

    // mcp_info says which one each server does.
    const info = fromStream(await (await fetch(sse.url, call('mcp_info', {}, token))).text());
    assert.equal(
      (info.result.structuredContent.transports as { http: { enableJson: boolean } }).http.enableJson,
      false,
    );
  } finally {
    await Promise.all([json.stop(), sse.stop()]);
  }
});

test('two servers on one ledger (replicas): a write through one is read through the other', async () => {
  const repo = tempRepo();
  const [a, b] = [await startHttpServer(repo), await startHttpServer(repo)];
  const token = makeToken(repo, 'person', ['--name', 'rep']);
  try {
    const made = (await (await fetch(a.url, call('task_create', { title: 'through server A' }, token))).json()) as {
      result: { structuredContent: { id: string } };
    };
    const id = made.result.structuredContent.id;
    const read = (await (await fetch(b.url, call('task_get', { id }, token, 2))).json()) as {
      result: { structuredContent: { title: string }; isError?: boolean };
    };
    assert.equal(read.result.isError, undefined, JSON.stringify(read));
    assert.equal(read.result.structuredContent.title, 'through server A');
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});

test('--tls-cert/--tls-key: HTTPS of its own, with a token', async () => {
  const dir = tempDir('agent-ledger-tls-');
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  const repo = tempRepo();
  const server = await startHttpServer(repo, ['--tls-cert', cert, '--tls-key', key]);
  const token = makeToken(repo, 'person', ['--name', 'tia']);
  try {
    assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const init = call('task_create', { title: 'over HTTPS' }, token);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = https.request(
        server.url,
        { method: 'POST', headers: init.headers as Record<string, string>, ca: fs.readFileSync(cert) },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end(init.body as string);
    });
    assert.equal(answer.status, 200, answer.body);
    assert.ok(JSON.parse(answer.body).result.structuredContent.id);
    // Plain HTTP on the same port is not served.
    await assert.rejects(fetch(server.url.replace('https:', 'http:'), call('mcp_info', {}, token)));
  } finally {
    await server.stop();
  }
});

test('one client with too many requests in flight is refused (429) past its bound; others are served', async () => {
  const repo = tempRepo();
  const server = await startHttpServer(repo, ['--enable-orchestrator']);
  const greedy = makeToken(repo, 'person', ['--name', 'greedy']);
  const other = makeToken(repo, 'person', ['--name', 'other']);
  const aborts: AbortController[] = [];
  try {
    // 40 waits from one token (the bound is 32), each held open by the server for up to 20 s.
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const abort = new AbortController();
        aborts.push(abort);
        const res = await fetch(server.url, {
          ...call('bb_watch', { start_version: 0, wait_ms: 20_000 }, greedy, i),
          signal: abort.signal,
        }).catch(() => undefined);
        return res?.status;
      }).map((p, i) =>
        // A waiting request answers only when its wait ends: take the status of those refused at once.
        Promise.race([p, new Promise<undefined>((r) => setTimeout(() => r(undefined), 3000 + i))]),
      ),
    );
    const refused = answers.filter((s) => s === 429).length;
    assert.equal(refused, 8, `statuses: ${JSON.stringify(answers)}`);
    const served = await fetch(server.url, call('task_create', { title: 'another client' }, other, 99));
    assert.equal(served.status, 200);
  } finally {
    for (const a of aborts) a.abort();
    await server.stop();
  }
});
