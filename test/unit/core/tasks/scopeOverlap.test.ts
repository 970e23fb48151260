import { test } from 'node:test';
import assert from 'node:assert/strict';
import { areaMatcher } from '../../../../src/core/tasks/scopeCheck';
import {
  filesInScope,
  pathInScope,
  patternCovers,
  patternsOverlap,
  scopeOverlaps,
  scopesOverlap,
} from '../../../../src/core/tasks/scopeOverlap';
import { shapeOf } from '../../../../src/core/tasks/scopePatterns';
import { seededRandom } from '../../../helpers/seededRandom';

const overlap = (a: string, b: string) => patternsOverlap(a, b) && patternsOverlap(b, a);
const disjoint = (a: string, b: string) => !patternsOverlap(a, b) && !patternsOverlap(b, a);

test('literal paths compare exactly: same file overlaps, different files do not, a folder holds its files', () => {
  assert.ok(overlap('src/a.ts', 'src/a.ts'));
  assert.ok(disjoint('src/a.ts', 'src/b.ts'));
  assert.ok(overlap('src/auth', 'src/auth/login.ts'), 'a path is a folder prefix');
  assert.ok(disjoint('src/auth', 'src/authoring.ts'), 'prefixes stop at segment boundaries');
  assert.ok(disjoint('src/auth', 'lib/src/auth/x.ts'));
  assert.ok(overlap('src/auth/', './src/auth/x.ts'), 'trailing slash and ./ are ignored as areaMatcher ignores them');
});

test('globs: literal heads, tails and extensions separate what cannot meet', () => {
  assert.ok(disjoint('src/auth/**', 'src/api/**'));
  assert.ok(overlap('src/**', 'src/auth/x.ts'));
  assert.ok(disjoint('**/*.ts', '**/*.md'));
  assert.ok(overlap('**/*.ts', 'src/**'));
  assert.ok(overlap('**/*.ts', '**/*.test.ts'), 'a suffix of the other suffix can meet');
  assert.ok(disjoint('*.ts', 'src/a.ts'), '* never crosses a slash');
  assert.ok(disjoint('src/*.ts', 'src/a/b.ts'));
  assert.ok(overlap('src/*/auth/**', 'src/x/**'));
  assert.ok(disjoint('src/*/auth/**', 'src/x/api/**'));
  assert.ok(disjoint('docs/**/*.md', 'src/**'));
  assert.ok(overlap('src/**/test/*.ts', '**/test/**'));
  assert.ok(disjoint('a/**/b/c', 'a/*'), 'a/* has two segments, a/**/b/c at least three');
  assert.ok(disjoint('a/**/b/c', 'a/**/b/d'), 'right-aligned tails must agree');
  assert.ok(overlap('a/**/b/c', 'a/b'), 'a literal path is a prefix: a/b/c lies under a/b');
  assert.ok(overlap('a/**/b', 'a/b'), '** matches zero segments');
  assert.ok(disjoint('src/[ab].ts', 'src/c.ts'), 'a class is tested exactly against a literal');
  assert.ok(overlap('src/[ab].ts', 'src/b.ts'));
  assert.ok(overlap('src/?.ts', 'src/*.ts'));
  assert.ok(disjoint('src/a?.ts', 'src/b*.ts'), 'literal prefixes a / b cannot meet');
  assert.ok(overlap('src/**.ts', 'src/x.ts'), '** inside a segment is a *');
  assert.ok(disjoint('src/**.ts', 'src/x/y.ts'));
});

test('braces, extglobs and negations are not followed: from there on the pattern counts as **', () => {
  assert.ok(overlap('{src,lib}/**', 'docs/a.md'), 'unsure means overlap');
  assert.ok(overlap('src/{a,b}/x.ts', 'src/c/y.ts'));
  assert.ok(disjoint('src/{a,b}/x.ts', 'lib/a/x.ts'), 'the literal head before the brace still counts');
  assert.ok(overlap('src/@(a|b)*.ts', 'src/c.ts'));
  assert.ok(disjoint('src/@(a|b).ts', 'src/c.ts'), 'without * ? [ ] { } areaMatcher reads it as a plain path');
  assert.ok(overlap('!src/**', 'src/a.ts'));
  assert.ok(overlap('src/[/]x', 'src/anything/else'), 'a class holding / is not split');
});

test('bare words are labels: they meet the same word, and paths or globs that name them (or name no folder at all)', () => {
  assert.ok(overlap('auth', 'AUTH'), 'the same label, ignoring case');
  assert.ok(disjoint('auth', 'api'), 'two different labels never meet');
  assert.ok(disjoint('auth', 'billing') && disjoint('README.md', 'auth'));
  assert.ok(
    overlap('auth', 'src/auth/**') && overlap('auth', 'lib/Auth/index.ts'),
    'a path or glob naming the segment',
  );
  assert.ok(
    overlap('auth', 'src/auth.test.ts') && overlap('auth', 'src/api/auth.ts'),
    'a file whose stem is the label',
  );
  assert.ok(
    overlap('auth', '**') && overlap('auth', '**/*.ts') && overlap('auth', '*'),
    'globs that name no folder cover the whole tree',
  );
  assert.ok(overlap('auth', '{src,lib}/**'), 'unsure (braces) still means overlap');
  assert.ok(disjoint('auth', 'src/**'), 'src/** does not name auth');
  assert.ok(disjoint('auth', 'src/api/*.ts'));
  assert.ok(
    disjoint('auth', 'docs/authoring.md') && disjoint('auth', 'docs/authoring*.md'),
    'a segment that only starts with the word is another name',
  );
  assert.ok(
    overlap('README.md', 'readme.md') && overlap('README.md', 'docs/README.md'),
    'a root file name is a label too',
  );
  assert.ok(disjoint('README.md', 'docs/**'));
  assert.deepEqual(scopeOverlaps(['auth', 'src/api/**'], ['billing', 'src/auth/login.ts', '**/*.md']), [
    { left: 'auth', right: 'src/auth/login.ts' },
    { left: 'auth', right: '**/*.md' },
    { left: 'src/api/**', right: '**/*.md' },
  ]);
});

test('scopes: empty scopes overlap nothing; pairs name the patterns that meet, in input order', () => {
  assert.equal(scopesOverlap([], ['**']), false);
  assert.equal(
    scopesOverlap(['src/auth/**', 'README.md'], ['docs/**', 'src/api/**']),
    false,
    'docs/** does not name the README.md label',
  );
  assert.equal(scopesOverlap(['src/auth/**', 'README.md'], ['docs/**', 'src/auth/x.ts']), true);
  assert.deepEqual(
    scopeOverlaps(['src/auth/**', 'README.md'], ['docs/**', 'src/api/*.ts', 'src/auth/x.ts', 'readme.md']),
    [
      { left: 'src/auth/**', right: 'src/auth/x.ts' },
      { left: 'README.md', right: 'readme.md' },
    ],
  );
  assert.equal(scopesOverlap(['src/auth/**'], ['src/api/**', 'test/**']), false);
});

const segmentWords = ['src', 'lib', 'auth', 'Auth', 'api', 'docs', 'test', 'a', 'b', 'x'];
const fileNames = [
  'a.ts',
  'b.ts',
  'auth.ts',
  'auth.test.ts',
  'README.md',
  'readme.md',
  'x.md',
  '.env',
  'index.js',
  'api.d.ts',
  'c',
];
const patterns = [
  'src/**',
  'src/auth/**',
  'src/api/**',
  'lib/**',
  '**',
  '**/*.ts',
  '**/*.md',
  '*.ts',
  '*.md',
  'src/*.ts',
  'src/*/*.ts',
  'docs/**/*.md',
  '**/auth/**',
  '**/test/**',
  'src/**/test/*.ts',
  'a/**/b',
  'src/a.ts',
  'src/auth',
  'docs',
  'auth',
  'README.md',
  'api',
  'x.md',
  '.env',
  '**/.env',
  'src/[ab].ts',
  'src/?.ts',
  '{src,lib}/**',
  'src/{a,b}/*.ts',
  'src/**.ts',
  '**/*.test.ts',
  'lib/*/index.js',
  'src/auth/*.ts',
  'test',
  '*',
  '*/a.ts',
  'b/**/x.md',
  'src/a*',
  'src/*a',
  'docs/',
  './lib/b',
  'Auth',
];

test('soundness: whenever a random path matches a pattern of each side, the rule says overlap (bare words aside: they are labels)', () => {
  const random = seededRandom(20240611);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const matchers = new Map(patterns.map((p) => [p, areaMatcher(p)]));
  let checked = 0;
  for (let n = 0; n < 4000; n++) {
    const depth = 1 + Math.floor(random() * 4);
    const path = [...Array.from({ length: depth - 1 }, () => pick(segmentWords)), pick(fileNames)].join('/');
    const hits = patterns.filter((p) => shapeOf(p).word === undefined && matchers.get(p)!(path));
    for (const a of hits) {
      for (const b of hits) {
        checked++;
        assert.ok(patternsOverlap(a, b), `${a} and ${b} both match ${path} but the rule said disjoint`);
      }
    }
  }
  assert.ok(checked > 10_000, `enough pairs were exercised (${checked})`);
});

test('precision: the rule is not "always overlap" — it separates a good share of the pattern pairs', () => {
  let disjointPairs = 0;
  for (const a of patterns) for (const b of patterns) if (!patternsOverlap(a, b)) disjointPairs++;
  assert.ok(disjointPairs > 300, `the rule separates many pairs (${disjointPairs} of ${patterns.length ** 2})`);
});

test('patternCovers: folders cover what lies under them; words and unrelated globs do not', () => {
  assert.ok(patternCovers('src/**', 'src/auth/**'));
  assert.ok(patternCovers('src', 'src') && patternCovers('src/auth', 'src/auth/login.ts'));
  assert.ok(patternCovers('**', 'docs/a.md'));
  assert.ok(!patternCovers('src/**', 'lib/a.ts'));
  assert.ok(!patternCovers('src/*.ts', 'src/a.ts'), 'only folder patterns are trusted to cover');
  assert.ok(!patternCovers('src/auth/**', 'src/**'));
  assert.ok(!patternCovers('src/**', 'auth'), 'a word can match outside src');
});

test('changed files against a write scope: write globs allow, exclude globs forbid (areaMatcher semantics)', () => {
  const scope = { write: ['src/**', 'docs'], exclude: ['**/*.env'] };
  assert.deepEqual(filesInScope(scope, ['src/a.ts', 'src/.env', 'docs/x/guide.md', 'package.json', 'src/a.ts']), {
    inside: ['docs/x/guide.md', 'src/a.ts'],
    outside: ['package.json', 'src/.env'],
  });
  assert.equal(pathInScope({ write: [], exclude: [] }, 'a.ts'), false, 'a read-only scope allows nothing');
  assert.equal(pathInScope(scope, 'src/deep/x.ts'), true);
});
