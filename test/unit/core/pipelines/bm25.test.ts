import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Bm25Index, tokenize } from '../../../../src/core/pipelines/prompt/bm25';

test('tokenize keeps words and numbers, drops stop words and one-letter words', () => {
  assert.deepEqual(tokenize('The HTTP client, v2: a retry-loop for requests!'), [
    'http',
    'client',
    'v2',
    'retry',
    'loop',
    'requests',
  ]);
  assert.deepEqual(tokenize('認証 タイムアウト'), ['認証', 'タイムアウト']);
});

test('scores: Okapi BM25 per term (k1 1.2, b 0.75, |d| in distinct terms) × matched query terms, to the decimal', () => {
  const index = new Bm25Index([
    { id: 'a', text: 'retry http requests' },
    { id: 'b', text: 'dark mode settings' },
    { id: 'c', text: 'http client timeout timeout' },
  ]);
  // N = 3; every document has 3 distinct terms, so avgdl = 3 and the length norm is k1 = 1.2.
  const idfHttp = Math.log(1 + 1.5 / 2.5);
  const idfTimeout = Math.log(1 + 2.5 / 1.5);
  const term = (idf: number, tf: number) => (idf * tf * 2.2) / (tf + 1.2);
  const a = term(idfHttp, 1);
  const c = (term(idfHttp, 1) + term(idfTimeout, 2)) * 2;
  const hits = index.search('http timeout');
  assert.deepEqual(
    hits.map((h) => h.id),
    ['c', 'a'],
    'b shares no term and is left out',
  );
  assert.ok(Math.abs(hits[0].score - c) < 1e-12, `${hits[0].score} vs ${c}`);
  assert.ok(Math.abs(hits[1].score - a) < 1e-12, `${hits[1].score} vs ${a}`);
  assert.equal(hits[0].score.toFixed(4), '3.6373');
  assert.equal(hits[1].score.toFixed(4), '0.4700');
});

test('ranking: rarer shared terms weigh more, shorter documents win ties of frequency, equal scores sort by id', () => {
  const index = new Bm25Index([
    { id: '.specs/3-dark-mode', text: 'Dark mode for the settings page' },
    { id: '.specs/1-retry', text: 'Retry flaky HTTP requests in the client' },
    {
      id: '.specs/2-timeout',
      text: 'HTTP client timeout configuration for requests in the gateway and the proxy and the worker',
    },
    { id: '.specs/4-copy', text: 'Retry flaky HTTP requests in the client' },
  ]);
  assert.deepEqual(
    index.search('retry HTTP requests when the network is flaky').map((h) => h.id),
    ['.specs/1-retry', '.specs/4-copy', '.specs/2-timeout'],
  );
  assert.deepEqual(index.search('the and of'), [], 'a query of stop words matches nothing');
  assert.deepEqual(index.search('kubernetes'), []);
  assert.equal(index.search('http', 1).length, 1, 'limit');
  assert.deepEqual(new Bm25Index([]).search('http'), []);
});
