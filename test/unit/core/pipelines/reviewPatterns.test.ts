import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeFindings, normalizeFinding, similarity } from '../../../../src/core/pipelines/prompt/reviewPatterns';

test('normalizing a finding drops case, markdown, a task prefix and surrounding punctuation', () => {
  assert.equal(
    normalizeFinding('Task 2: **Missing** error-handling in the `parser`.'),
    'missing error handling in the parser',
  );
  assert.equal(similarity('abc', 'abc'), 1);
  assert.equal(similarity('add docs', 'add more docs'), 1 - 5 / 13);
});

test('findings within 30% edit distance merge into one pattern: count, highest severity, sources, first wording', () => {
  const patterns = mergeFindings([
    { severity: 'MINOR', description: 'Missing error handling in the parser', source: 'p1' },
    { severity: 'MAJOR', description: 'missing error-handling in parser', source: 'p2' },
    { severity: 'CRITICAL', description: 'SQL injection in the search endpoint', source: 'p1' },
    { severity: 'MINOR', description: 'Task 2: Missing error handling in the parser.', source: 'p3' },
    { severity: 'INFO', description: 'Add docs' },
    { severity: 'MINOR', description: 'Add more docs' },
    { severity: 'MINOR', description: 'missing error handling in the parser', source: 'p1' },
  ]);
  assert.deepEqual(patterns, [
    { severity: 'MAJOR', description: 'Missing error handling in the parser', count: 4, sources: ['p1', 'p2', 'p3'] },
    { severity: 'CRITICAL', description: 'SQL injection in the search endpoint', count: 1, sources: ['p1'] },
    { severity: 'MINOR', description: 'Add more docs', count: 1, sources: [] },
    { severity: 'INFO', description: 'Add docs', count: 1, sources: [] },
  ]);
});

test('the threshold decides: "add docs" and "add more docs" (38% apart) merge only above it', () => {
  const input = [
    { severity: 'INFO' as const, description: 'Add docs' },
    { severity: 'INFO' as const, description: 'Add more docs' },
  ];
  assert.equal(mergeFindings(input).length, 2);
  assert.deepEqual(mergeFindings(input, { threshold: 0.4 }), [
    { severity: 'INFO', description: 'Add docs', count: 2, sources: [] },
  ]);
  assert.deepEqual(mergeFindings([{ severity: 'INFO', description: ' ** ' }]), [], 'empty findings are dropped');
});
