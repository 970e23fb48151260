// A watch of the work tree (the changed-file marks' look) names, look after look, exactly the
// paths a snapshot diff from the previous look names — new, changed, deleted, renamed, mode,
// ignored, a commit made meanwhile, a subfolder workspace — and writes no object.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileChanges, Snapshot } from '../../../src/core/ports/workspaceTruth';
import { GitRepo } from '../../../src/git/gitRepo';
import { GitWorkspaceTruth } from '../../../src/git/gitWorkspaceTruth';
import { commit, makeRepo, write } from './gitFixture';

function paths(files: FileChanges): string[] {
  return [
    ...new Set([...files.added, ...files.modified, ...files.deleted, ...files.renamed.flatMap((r) => [r.from, r.to])]),
  ].sort();
}

function looseObjects(root: string): number {
  const dir = path.join(root, '.git', 'objects');
  return fs
    .readdirSync(dir)
    .filter((d) => /^[0-9a-f]{2}$/.test(d))
    .reduce((n, d) => n + fs.readdirSync(path.join(dir, d)).length, 0);
}

const steps: { name: string; act: (root: string) => void }[] = [
  { name: 'nothing', act: () => undefined },
  { name: 'an edit and a new file', act: (r) => write(r, { 'pkg/a.ts': 'a2\n', 'pkg/new.ts': 'n\n' }) },
  { name: 'the same again', act: () => undefined },
  {
    name: 'a rename and a deletion',
    act: (r) => (
      fs.renameSync(path.join(r, 'pkg/b.ts'), path.join(r, 'pkg/c.ts')),
      fs.rmSync(path.join(r, 'docs/x.md'))
    ),
  },
  { name: 'a mode change', act: (r) => fs.chmodSync(path.join(r, 'pkg/a.ts'), 0o755) },
  { name: 'an ignored file and an ignored edit', act: (r) => write(r, { 'pkg/out.log': 'x\n', 'pkg/new.ts': 'n\n' }) },
  { name: 'a commit of what changed (nothing in the files)', act: (r) => commit(r, 'work') },
  { name: 'an edit reverted to the start', act: (r) => write(r, { 'pkg/a.ts': 'a\n' }) },
];

for (const scope of ['', 'pkg']) {
  test(`watchChanges${scope ? ' in a subfolder workspace' : ''}: each look names what a snapshot diff names, and no object is written`, async () => {
    const root = makeRepo({ 'pkg/a.ts': 'a\n', 'pkg/b.ts': 'b\n', 'docs/x.md': 'x\n', '.gitignore': '*.log\n' });
    const truth = new GitWorkspaceTruth(await GitRepo.open(path.join(root, scope)));
    const start = await truth.snapshot('start');
    const watch = await truth.watchChanges(start);
    assert.ok(watch);
    let previous: Snapshot = start;
    for (const step of steps) {
      step.act(root);
      const before = looseObjects(root);
      const seen = await watch.next();
      assert.equal(looseObjects(root), before, `${step.name}: no object written`);
      const diff = await truth.changesSince(previous);
      previous = diff.to;
      assert.deepEqual(seen, paths(diff.files), step.name);
    }
    await watch.dispose();
    assert.deepEqual(
      fs.readdirSync(path.join(root, '.git')).filter((f) => f.startsWith('agent-ledger-changes-')),
      [],
      'disposed: its index is gone',
    );
  });
}
