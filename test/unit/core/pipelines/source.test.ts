import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  detectSource,
  parseArguments,
  proposeWorkspace,
  slugify,
} from '../../../../src/core/pipelines/engine/requestSource';

test('flags are taken out of the text; unknown --words stay in it', () => {
  const parsed = parseArguments('--auto Fix the --force handling --nopr --effort m --debug', 'main');
  assert.deepEqual(parsed.flags, {
    auto: true,
    skip_pr: true,
    debug: true,
    discuss: false,
    effort_override: 'M',
    current_branch: 'main',
  });
  assert.equal(parsed.coreText, 'Fix the --force handling');
  assert.deepEqual(parsed.errors, []);
  assert.equal(parseArguments('--effort=L --discuss improve search', null).flags.effort_override, 'L');
  assert.deepEqual(parseArguments('x', null).errors, ['input too short: minimum 3 characters required']);
  assert.deepEqual(parseArguments('fix it --effort', null).errors, ['--effort must be S, M or L (got "")']);
});

test('source types of seed 003', () => {
  assert.deepEqual(detectSource('https://github.com/owner/repo/issues/42'), {
    type: 'github_issue',
    url: 'https://github.com/owner/repo/issues/42',
    id: '42',
    specsPath: null,
  });
  assert.deepEqual(detectSource('see https://acme.atlassian.net/browse/SOA-123 please'), {
    type: 'jira_issue',
    url: 'https://acme.atlassian.net/browse/SOA-123',
    id: 'SOA-123',
    specsPath: null,
  });
  assert.deepEqual(detectSource('resume ./.specs/20260330-fix-auth-timeout/'), {
    type: 'workspace',
    url: null,
    id: null,
    specsPath: '.specs/20260330-fix-auth-timeout',
  });
  assert.equal(detectSource('https://github.com/owner/repo/pull/42').type, 'text', 'a pull request is not an issue');
  assert.equal(detectSource('implement login feature').type, 'text');
});

test('workspace names: the seed slug, cut on a word, a suffix when taken', () => {
  assert.equal(slugify('https://github.com/owner/repo/issues/42'), 'https-github-com-owner-repo-issues-42');
  assert.equal(slugify('Café: élan — résumé!'), 'cafe-elan-resume');
  assert.equal(
    slugify('A very long request that goes on and on about many different things'),
    'a-very-long-request-that-goes-on-and-on-about-many',
  );
  assert.equal(slugify('!!!'), 'pipeline');
  const date = new Date('2026-04-01T12:00:00Z');
  assert.deepEqual(
    proposeWorkspace(date, 'Fix auth timeout', () => false),
    { workspace: '.specs/20260401-fix-auth-timeout', specName: 'fix-auth-timeout' },
  );
  const taken = new Set(['20260401-fix-auth-timeout', '20260401-fix-auth-timeout-2']);
  assert.deepEqual(
    proposeWorkspace(date, 'Fix auth timeout', (n) => taken.has(n)),
    { workspace: '.specs/20260401-fix-auth-timeout-3', specName: 'fix-auth-timeout-3' },
  );
});
