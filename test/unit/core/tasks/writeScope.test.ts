import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withWriteScope } from '../../../../src/core/tasks/scopeCheck';

const files = (...modified: string[]) => ({ added: [], modified, deleted: [], renamed: [] });
const ok = { scope_match: true, unexpected_files: [], warnings: [] };

test('without a recorded write scope the verification is unchanged', () => {
  assert.deepEqual(withWriteScope(ok, null, files('anything.ts')), ok);
});

test('a change is expected when one agent could write it (write glob, not excluded)', () => {
  const scopes = [
    { agent: 'coder', write: ['src/**'], exclude: ['**/*.env'] },
    { agent: 'docs', write: ['docs'], exclude: [] },
  ];
  const v = withWriteScope(ok, scopes, files('src/a.ts', 'docs/x/guide.md', 'src/.env', 'package.json'));
  assert.equal(v.scope_match, false);
  assert.deepEqual(v.unexpected_files, ['package.json', 'src/.env']);
  assert.match(
    v.warnings[0],
    /2 file\(s\) modified outside the agents' write scope \(coder: src\/\*\* except \*\*\/\*\.env; docs: docs\)/,
  );
});

test('a read-only agent may change nothing; earlier unexpected files are kept', () => {
  const prior = { scope_match: false, unexpected_files: ['z.ts'], warnings: ['areas'] };
  const v = withWriteScope(prior, [{ agent: 'reviewer', write: [], exclude: [] }], files('a.ts'));
  assert.deepEqual(v.unexpected_files, ['a.ts', 'z.ts']);
  assert.equal(v.warnings.length, 2);
  assert.match(v.warnings[1], /reviewer: read-only/);
});
