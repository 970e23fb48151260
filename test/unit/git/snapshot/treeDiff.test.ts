// The in-process tree diff (treeDiff.ts) against `git diff-tree -r --raw --find-renames` on random
// commits: the same records wherever it answers, and no answer exactly where a rename is possible.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GitRepo } from '../../../../src/git/gitRepo';
import { parseRawDiff } from '../../../../src/git/parsers';
import type { RawChange } from '../../../../src/git/parsers';
import { diffTreesInProcess } from '../../../../src/git/snapshot/treeDiff';
import { seeded } from '../../core/coordination/plans/random';
import { git, makeRepo } from '../gitFixture';

const key = (c: RawChange) => `${c.status} ${c.oldMode} ${c.newMode} ${c.oldSha} ${c.newSha} ${c.from ?? ''} ${c.path}`;

/** One random edit of the work tree: files, executable bits, symlinks, nested folders, names that are not ASCII. */
function edit(root: string, r: ReturnType<typeof seeded>, allowDelete: boolean, allowAdd: boolean): void {
  const present = (f: string) => {
    try {
      return fs.lstatSync(path.join(root, f)) !== undefined;
    } catch {
      return false;
    }
  };
  const files = git(root, 'ls-files', '-z')
    .split('\0')
    .filter((f) => f && present(f));
  const choice = r.int(6);
  const existing = files.length ? files[r.int(files.length)] : undefined;
  if (choice === 0 && allowAdd) {
    const folder = ['', 'src', 'src/deep/er', 'docs', 'ünï code'][r.int(5)];
    const name = path.join(folder, `new-${r.int(1e6)}.txt`);
    fs.mkdirSync(path.join(root, path.dirname(name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), `content ${r.int(1e9)}\n`);
  } else if (choice === 1 && existing && allowDelete) {
    fs.rmSync(path.join(root, existing));
  } else if (choice === 2 && existing) {
    const file = path.join(root, existing);
    if (!fs.lstatSync(file).isSymbolicLink()) fs.chmodSync(file, fs.statSync(file).mode & 0o100 ? 0o644 : 0o755);
  } else if (choice === 3 && existing) {
    const file = path.join(root, existing);
    fs.rmSync(file);
    if (r.int(2)) fs.symlinkSync(`target-${r.int(100)}`, file);
    else fs.writeFileSync(file, `back to a file ${r.int(1e9)}\n`);
  } else if (existing) {
    const file = path.join(root, existing);
    if (!fs.lstatSync(file).isSymbolicLink()) fs.appendFileSync(file, `edit ${r.int(1e9)}\n`);
  }
}

test("the in-process tree diff gives diff-tree's records, and declines where a rename is possible", async () => {
  const seeds = 30;
  let answered = 0;
  let declined = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    const r = seeded(seed);
    const root = makeRepo({
      'README.md': '# t\n',
      'src/a.ts': 'a\n',
      'src/deep/er/b.ts': 'b\n',
      'docs/guide.md': 'g\n',
      'ünï code/x.txt': 'x\n',
      'run.sh': '#!/bin/sh\n',
    });
    const before = git(root, 'rev-parse', 'HEAD').trim();
    // A third of the rounds may both delete and add (a rename is possible there).
    const mode = seed % 3;
    for (let i = 0; i < 1 + r.int(8); i++) edit(root, r, mode !== 1, mode !== 2);
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '--allow-empty', '-m', `round ${seed}`);
    const after = git(root, 'rev-parse', 'HEAD').trim();
    const repo = await GitRepo.open(root);
    const expected = parseRawDiff(
      git(root, 'diff-tree', '-r', '-z', '--no-commit-id', '--find-renames', '--raw', before, after),
    )
      .map(key)
      .sort();
    const ours = await diffTreesInProcess(repo, before, after);
    const kinds = new Set(expected.map((k) => k[0]));
    if (ours === null) {
      declined++;
      assert.ok(
        kinds.has('R') || (kinds.has('A') && kinds.has('D')),
        `seed ${seed}: declined without a possible rename: ${expected.join(' | ')}`,
      );
    } else {
      answered++;
      assert.deepEqual(ours.map(key).sort(), expected, `seed ${seed}`);
    }
  }
  assert.ok(answered >= seeds / 2 && declined > 0, `answered ${answered}, declined ${declined}`);
});

test('a folder replaced by a file and a new folder are diffed like diff-tree; a missing tree declines', async () => {
  const root = makeRepo({ 'a/one.txt': '1\n', 'a/two/three.txt': '3\n', 'keep.txt': 'k\n' });
  const before = git(root, 'rev-parse', 'HEAD').trim();
  fs.writeFileSync(path.join(root, 'keep.txt'), 'changed\n');
  fs.mkdirSync(path.join(root, 'b/c'), { recursive: true });
  fs.writeFileSync(path.join(root, 'b/c/d.txt'), 'd\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'adds');
  const after = git(root, 'rev-parse', 'HEAD').trim();
  const repo = await GitRepo.open(root);
  const expected = parseRawDiff(
    git(root, 'diff-tree', '-r', '-z', '--no-commit-id', '--find-renames', '--raw', before, after),
  )
    .map(key)
    .sort();
  assert.deepEqual((await diffTreesInProcess(repo, before, after))?.map(key).sort(), expected);
  assert.equal(await diffTreesInProcess(repo, before, 'f'.repeat(40)), null, 'an object the repository does not have');
});
