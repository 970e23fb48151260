import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseReview } from '../../../../src/core/pipelines/engine/verdict';

test('verdict lines in the shapes reviewers write', () => {
  const cases: [string, 'review' | 'code', string | null][] = [
    ['## Verdict: APPROVE_WITH_NOTES', 'review', 'APPROVE_WITH_NOTES'],
    ['# Verdict: APPROVE', 'review', 'APPROVE'],
    ['Verdict: REVISE', 'review', 'REVISE'],
    ['**Verdict:** approve with notes', 'review', 'APPROVE_WITH_NOTES'],
    ['### Verdict — Approve-With-Notes (minor issues only)', 'review', 'APPROVE_WITH_NOTES'],
    ['## Verdict: APPROVE because the design is sound', 'review', 'APPROVE'],
    ['## Verdict: FAIL — two critical issues', 'code', 'FAIL'],
    ['## Verdict: PASS_WITH_NOTES', 'code', 'PASS_WITH_NOTES'],
    ['- Verdict: `PASS`', 'code', 'PASS'],
    ['The verdict is unclear', 'review', null],
    ['## Verdict: MAYBE', 'review', null],
    ['## Verdict: PASSED', 'code', null],
  ];
  for (const [text, family, expected] of cases) assert.equal(parseReview(text, family).verdict, expected, text);
});

test('a heading verdict wins over an inline one; the last of a kind wins; the other table is reported as foreign', () => {
  assert.equal(parseReview('Verdict: APPROVE\n\n## Verdict: REVISE\n', 'review').verdict, 'REVISE');
  assert.equal(parseReview('## Verdict: REVISE\n...\nVerdict: APPROVE\n', 'review').verdict, 'REVISE');
  assert.equal(parseReview('## Verdict: REVISE\nfixed\n## Verdict: APPROVE\n', 'review').verdict, 'APPROVE');
  assert.deepEqual(parseReview('## Verdict: PASS\n', 'review'), { verdict: null, foreign: 'PASS', findings: [] });
});

test('findings with severities, in order, markdown stripped', () => {
  const text = [
    '# Review',
    '**1. [CRITICAL] Retries are unbounded**',
    '**[MINOR] Name the option `maxRetries`**',
    '- [major] The timeout is not configurable',
    '2. **[INFO]** Consider a jitter',
    '[MINOR]: trailing colon form',
    'Not a finding [CRITICAL] in the middle of a sentence',
    '## Verdict: REVISE',
  ].join('\n');
  assert.deepEqual(parseReview(text, 'review'), {
    verdict: 'REVISE',
    foreign: null,
    findings: [
      { severity: 'CRITICAL', description: 'Retries are unbounded' },
      { severity: 'MINOR', description: 'Name the option `maxRetries`' },
      { severity: 'MAJOR', description: 'The timeout is not configurable' },
      { severity: 'INFO', description: 'Consider a jitter' },
      { severity: 'MINOR', description: 'trailing colon form' },
    ],
  });
});
