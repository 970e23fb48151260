import { test } from 'node:test';
import assert from 'node:assert/strict';
import { areaMatcher, verifyScope } from '../../../../src/core/tasks/scopeCheck';

const matches = (area: string, path: string) => areaMatcher(area)(path);

test('a bare word matches a whole path segment or a file stem, never part of a word', () => {
  assert.equal(matches('auth', 'src/auth/x.ts'), true);
  assert.equal(matches('auth', 'auth.ts'), true);
  assert.equal(matches('auth', 'src/auth.test.ts'), true);
  assert.equal(matches('auth', 'lib/Auth/index.ts'), true, 'words ignore case');
  assert.equal(matches('auth', 'docs/authoring.md'), false);
  assert.equal(matches('auth', 'src/oauth/x.ts'), false);
  assert.equal(matches('api', 'src/apis/x.ts'), false);
  assert.equal(matches('package.json', 'package.json'), true);
});

test('a path matches by prefix on segment boundaries', () => {
  assert.equal(matches('src/auth', 'src/auth/login.ts'), true);
  assert.equal(matches('src/auth/', 'src/auth/login.ts'), true);
  assert.equal(matches('./src/auth', 'src/auth/login.ts'), true);
  assert.equal(matches('src/auth', 'src/auth'), true);
  assert.equal(matches('src/auth', 'src/authoring.ts'), false);
  assert.equal(matches('src/auth', 'lib/src/auth/x.ts'), false);
});

test('a glob matches the whole path', () => {
  assert.equal(matches('src/**/auth*.ts', 'src/a/b/authService.ts'), true);
  assert.equal(matches('src/**/auth*.ts', 'src/auth.ts'), true);
  assert.equal(matches('src/**/auth*.ts', 'test/auth.ts'), false);
  assert.equal(matches('*.md', 'README.md'), true);
  assert.equal(matches('**/*.md', 'docs/a.md'), true);
  assert.equal(matches('{src,lib}/**', 'lib/x.js'), true);
});

test('verifyScope reports files outside the areas in seed 000 words; renames count by new path', () => {
  const v = verifyScope(['auth', 'api'], {
    added: ['src/auth/config.ts'],
    modified: ['src/api/routes.ts', 'utils.ts'],
    deleted: [],
    renamed: [{ from: 'src/auth/old.ts', to: 'lib/new.ts' }],
  });
  assert.equal(v.scope_match, false);
  assert.deepEqual(v.unexpected_files, ['lib/new.ts', 'utils.ts']);
  assert.deepEqual(v.warnings, ['⚠️ 2 file(s) modified outside declared scope (auth, api)']);
});

test('no declared areas means nothing is unexpected', () => {
  const v = verifyScope([], { added: ['a'], modified: [], deleted: [], renamed: [] });
  assert.deepEqual(v, { scope_match: true, unexpected_files: [], warnings: [] });
});
