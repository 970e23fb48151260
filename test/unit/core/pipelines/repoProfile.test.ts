import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeRepoProfile, detectCommands, shares } from '../../../../src/core/pipelines/prompt/repoProfile';
import { tempDir, writeFiles } from '../../../helpers/tmp';

test('build and test commands from manifests, Makefile first', () => {
  assert.deepEqual(detectCommands({ makefile: 'build:\n\tgo build ./...\n\nlint:\n', goMod: true }), {
    build: 'make build',
    test: 'go test ./...',
  });
  assert.deepEqual(
    detectCommands({ packageJson: '{"scripts":{"build":"tsc","test":"vitest"}}', lockfiles: ['pnpm-lock.yaml'] }),
    { build: 'pnpm run build', test: 'pnpm test' },
  );
  assert.deepEqual(
    detectCommands({ packageJson: '{"scripts":{"test":"echo \\"Error: no test specified\\" && exit 1"}}' }),
    { build: null, test: null },
  );
  assert.deepEqual(detectCommands({ cargoToml: true }), { build: 'cargo build', test: 'cargo test' });
  assert.deepEqual(detectCommands({ pyproject: '[tool.poetry]\nname = "x"\n[tool.pytest.ini_options]\n' }), {
    build: 'poetry build',
    test: 'poetry run pytest',
  });
  assert.deepEqual(
    detectCommands({ makefile: 'VAR := 1\ntest: deps\n' }),
    { build: null, test: 'make test' },
    '`VAR :=` is not a target',
  );
  assert.deepEqual(detectCommands({ packageJson: 'not json' }), { build: null, test: null });
});

test('language shares: whole percents of source bytes, at least 1%, largest first', () => {
  assert.deepEqual(
    shares(
      new Map([
        ['Go', 820],
        ['TypeScript', 150],
        ['Shell', 25],
        ['CSS', 5],
      ]),
    ),
    [
      { name: 'Go', percent: 82 },
      { name: 'TypeScript', percent: 15 },
      { name: 'Shell', percent: 3 },
      { name: 'CSS', percent: 1 },
    ],
  );
  assert.deepEqual(shares(new Map()), []);
});

test('a repository profile skips dependencies, build output and hidden folders', () => {
  const dir = tempDir();
  writeFiles(dir, {
    'go.mod': 'module x\n',
    'main.go': 'x'.repeat(800),
    'web/app.ts': 'x'.repeat(200),
    'node_modules/lib/index.js': 'x'.repeat(100_000),
    'dist/bundle.js': 'x'.repeat(100_000),
    '.specs/x/notes.py': 'x'.repeat(100_000),
    'types.d.ts': 'x'.repeat(100_000),
  });
  assert.deepEqual(computeRepoProfile(dir), {
    languages: [
      { name: 'Go', percent: 80 },
      { name: 'TypeScript', percent: 20 },
    ],
    build: 'go build ./...',
    test: 'go test ./...',
  });
});
