import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerError } from '../../../../../src/core/errors';
import {
  createKnowledgeGraph,
  exportTriples,
  goalKey,
  insertTriples,
  queryTriples,
} from '../../../../../src/core/scheduling/knowledge/knowledgeGraph';
import {
  kgExportResult,
  kgInsertResult,
  kgQueryResult,
} from '../../../../../src/core/scheduling/knowledge/knowledgeContracts';

test('insert creates, updates (revision + 1, provenance merged) and leaves identical facts unchanged', () => {
  const first = insertTriples(
    createKnowledgeGraph(),
    [
      { subject: 'incident', predicate: 'includes', object: 'detect', source: 'playbook', confidence: 0.9 },
      { subject: 'incident', predicate: 'includes', object: 'contain', source: 'playbook', confidence: 0.8 },
      { subject: ' task:contain ', predicate: 'depends_on', object: 'detect ' },
    ],
    0,
  );
  assert.deepEqual([first.created, first.updated, first.unchanged, first.total], [3, 0, 0, 3]);
  assert.deepEqual(
    first.inserted.map((t) => [t.id, t.ordinal, t.subject, t.object]),
    [
      ['kg-1', 1, 'incident', 'detect'],
      ['kg-2', 2, 'incident', 'contain'],
      ['kg-3', 3, 'task:contain', 'detect'],
    ],
  );
  kgInsertResult.parse({ inserted: first.inserted, created: 3, updated: 0, unchanged: 0, total: 3 });
  const second = insertTriples(
    first.kg,
    [
      {
        subject: 'incident',
        predicate: 'includes',
        object: 'detect',
        source: 'library',
        confidence: 0.95,
        provenance: [{ sourceId: 'docs/ir.md', type: 'file' }],
      },
      { subject: 'incident', predicate: 'includes', object: 'contain', source: 'playbook', confidence: 0.8 },
      { subject: 'task:contain', predicate: 'label', object: 'Contain incident' },
    ],
    100,
  );
  assert.deepEqual([second.created, second.updated, second.unchanged, second.total], [1, 1, 1, 4]);
  assert.deepEqual(second.inserted[0], {
    id: 'kg-1',
    subject: 'incident',
    predicate: 'includes',
    object: 'detect',
    source: 'library',
    confidence: 0.95,
    provenance: [{ sourceId: 'docs/ir.md', type: 'file' }],
    inserted_at: 0,
    updated_at: 100,
    revision: 1,
    ordinal: 1,
  });
  assert.equal(second.inserted[1].revision, 0, 'same facts again: no new revision');
  const third = insertTriples(
    second.kg,
    [
      {
        subject: 'incident',
        predicate: 'includes',
        object: 'detect',
        source: 'library',
        confidence: 0.95,
        provenance: [{ sourceId: 'docs/ir.md', type: 'file' }],
      },
    ],
    200,
  );
  assert.equal(third.unchanged, 1, 'known provenance adds nothing');
  assert.equal(first.kg.triples.size, 3, 'the input graph is never changed');
});

test('a blank part refuses the whole insert', () => {
  const kg = createKnowledgeGraph();
  let error: unknown;
  try {
    insertTriples(
      kg,
      [
        { subject: 'a', predicate: 'b', object: 'c' },
        { subject: 'a', predicate: ' ', object: 'c' },
      ],
      0,
    );
  } catch (e) {
    error = e;
  }
  assert.ok(LedgerError.is(error, 'ValidationError'));
  assert.equal(error.data?.error, 'E-KG-BAD-TRIPLE');
  assert.equal(error.data?.index, 1);
  assert.equal(kg.triples.size, 0);
});

test('query: exact or * wildcards, source, min_confidence, order and cursor pages', () => {
  const { kg } = insertTriples(
    createKnowledgeGraph(),
    [
      { subject: 'incident', predicate: 'includes', object: 'detect', source: 'playbook', confidence: 0.9 },
      { subject: 'incident', predicate: 'includes', object: 'contain', source: 'playbook', confidence: 0.8 },
      { subject: 'task:contain', predicate: 'depends_on', object: 'detect' },
      { subject: 'task:contain', predicate: 'label', object: 'Contain (a.k.a. isolate)' },
      { subject: 'release', predicate: 'includes', object: 'build', source: 'qa-playbook' },
    ],
    0,
  );
  const objects = (r: { triples: { object: string }[] }) => r.triples.map((t) => t.object);
  assert.deepEqual(objects(queryTriples(kg, { subject: 'incident', predicate: 'includes' })), ['detect', 'contain']);
  assert.deepEqual(objects(queryTriples(kg, { object: 'cont*' })), ['contain']);
  assert.deepEqual(
    objects(queryTriples(kg, { object: '*(a.k.a.*' })),
    ['Contain (a.k.a. isolate)'],
    'regex characters are literal',
  );
  assert.deepEqual(objects(queryTriples(kg, { source: '*playbook' })), ['detect', 'contain', 'build']);
  assert.deepEqual(objects(queryTriples(kg, { predicate: 'includes', min_confidence: 0.85 })), ['detect', 'build']);
  const page1 = queryTriples(kg, { predicate: 'includes' }, { limit: 2, order: 'desc' });
  assert.deepEqual([objects(page1), page1.total, page1.next_cursor], [['build', 'contain'], 2, 2]);
  const page2 = queryTriples(kg, { predicate: 'includes' }, { limit: 2, order: 'desc', cursor: page1.next_cursor! });
  assert.deepEqual([objects(page2), page2.next_cursor], [['detect'], 1]);
  kgQueryResult.parse(page2);
  assert.deepEqual(queryTriples(kg, { subject: 'none' }), { triples: [], total: 0, next_cursor: null });
});

test('export pages every triple in insertion order; a graph round-trips through its triples', () => {
  const { kg } = insertTriples(
    createKnowledgeGraph(),
    Array.from({ length: 5 }, (_, i) => ({ subject: `s${i}`, predicate: 'p', object: 'o' })),
    0,
  );
  const first = exportTriples(kg, { limit: 3 });
  assert.deepEqual([first.triples.map((t) => t.ordinal), first.total, first.next_cursor], [[1, 2, 3], 5, 3]);
  const rest = exportTriples(kg, { limit: 3, cursor: 3 });
  assert.deepEqual([rest.triples.map((t) => t.ordinal), rest.next_cursor], [[4, 5], null]);
  kgExportResult.parse(rest);
  const copy = createKnowledgeGraph(exportTriples(kg).triples);
  assert.equal(copy.sequence, 5);
  assert.equal(insertTriples(copy, [{ subject: 'new', predicate: 'p', object: 'o' }], 1).inserted[0].id, 'kg-6');
});

test('goal keys are stable names', () => {
  assert.equal(goalKey('Add OAuth login'), 'add-oauth-login');
  assert.equal(goalKey('  Réparer la CI — vite!  '), 'reparer-la-ci-vite');
  assert.equal(goalKey('!!!'), '');
});
